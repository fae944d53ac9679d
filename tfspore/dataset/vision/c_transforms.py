"""Legacy module path ``mindspore.dataset.vision.c_transforms``: the same transforms.

Example:
    >>> import tfspore.dataset.vision.c_transforms as CV
    >>> op = CV.Resize((32, 32))
"""
from tfspore.dataset.vision import *  # noqa: F401,F403
from tfspore.dataset.vision import __all__  # noqa: F401
