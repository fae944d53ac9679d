"""Core pieces of ``tfspore.dataset``: the global pipeline configuration."""
from tfspore.dataset.core import config

__all__ = ["config"]
