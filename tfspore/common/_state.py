"""Old import path of :mod:`tfspore._internal.state` (trace depth and configuration epoch); import from there."""
from tfspore._internal.state import bump, depth, entered, epoch  # noqa: F401
