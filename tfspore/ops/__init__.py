"""``tfspore.ops``: primitives, the functional API and autodiff."""
from tfspore.ops.composite import GradOperation, grad, value_and_grad, vjp, jvp  # noqa: F401
