"""``tfspore.nn.grad`` (MindSpore's ``mindspore.nn.grad``): the deprecated ``Jvp`` and ``Vjp`` Cells."""
from tfspore.nn.grad import cell_grad
from tfspore.nn.grad.cell_grad import Jvp, Vjp  # noqa: F401

__all__ = list(cell_grad.__all__)
