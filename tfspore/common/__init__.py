"""``tfspore.common``: dtype, Tensor, Parameter, initializers, seeds and ``jit``."""
from tfspore.common import dtype
from tfspore.common.dtype import *  # noqa: F401,F403
from tfspore.common.tensor import Tensor, tensor, is_tensor
from tfspore.common.parameter import Parameter, ParameterTuple
from tfspore.common.seed import set_seed, get_seed
from tfspore.common.api import jit, JitConfig, lazy_inline, ms_function, mutable, no_inline
from tfspore.common._row_tensor import RowTensor, RowTensorInner

__all__ = ["dtype", "Tensor", "tensor", "is_tensor", "Parameter", "ParameterTuple", "set_seed", "get_seed", "jit",
           "JitConfig", "lazy_inline", "ms_function", "mutable", "no_inline"] + list(dtype.__all__)
__all__ += ["RowTensor", "RowTensorInner"]
