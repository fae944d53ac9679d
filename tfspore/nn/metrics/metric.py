"""``mindspore.nn.metrics.metric``: the 1.x path of the metric base class and its helpers."""
from tfspore.train.metrics import Metric, rearrange_inputs

__all__ = ["Metric", "rearrange_inputs"]
