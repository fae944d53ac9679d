"""``tfspore.ops.composite``: autodiff and higher-order operations."""
from tfspore.ops.composite._grad import GradOperation, grad, value_and_grad, vjp, jvp

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "jvp"]
