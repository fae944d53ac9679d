"""Legacy module path ``mindspore.dataset.vision.py_transforms``: the same transforms as TF ops.

MindSpore 1.x ran these through Pillow on PIL images; here they run as the common TF-op
transforms on arrays (``Inter.ANTIALIAS`` and ``Inter.PILCUBIC`` resize with Pillow's filters).
``Normalize`` defaults to CHW input, the layout ``ToTensor`` gives, as the 1.x Normalize did.

Example:
    >>> import tfspore.dataset.vision.py_transforms as CV
    >>> op = CV.Resize((32, 32))
"""
from tfspore.dataset.vision import *  # noqa: F401,F403
from tfspore.dataset.vision import __all__  # noqa: F401
from tfspore.dataset.vision._py_compat import Normalize  # noqa: F811
