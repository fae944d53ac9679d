"""``mindspore.profiler.profiling``: MindSpore 1.x's path of :class:`~tfspore.profiler.Profiler`."""
from tfspore.profiler._profiler import Profiler

__all__ = ["Profiler"]
