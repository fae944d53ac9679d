"""``tfspore.train.train_thor``: MindSpore's THOR conversion helpers (``mindspore.train.train_thor``)."""
from tfspore.train.train_thor.convert_utils import ConvertModelUtils, ConvertNetUtils

__all__ = ["ConvertNetUtils", "ConvertModelUtils"]
