"""Legacy module path ``mindspore.dataset.vision.py_transforms``: the same transforms.

Example:
    >>> import tfspore.dataset.vision.py_transforms as CV
    >>> op = CV.Resize((32, 32))
"""
from tfspore.dataset.vision import *  # noqa: F401,F403
from tfspore.dataset.vision import __all__  # noqa: F401
