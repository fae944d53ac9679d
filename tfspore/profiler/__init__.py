"""``tfspore.profiler``: MindSpore's ``Profiler`` on TensorFlow's profiler.

Traces go to ``<output_path>/plugins/profile/<run>/*.xplane.pb``, which TensorBoard's profile
plugin opens (``tensorboard --logdir <output_path>``).

Example:
    >>> from tfspore.profiler import Profiler
    >>> profiler = Profiler(output_path="./profiler_data")
    >>> profiler.analyse()
"""
from tfspore.profiler._profiler import AicoreMetrics, ExportType, Profiler, ProfilerActivity, ProfilerLevel

__all__ = ["Profiler", "ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType"]
