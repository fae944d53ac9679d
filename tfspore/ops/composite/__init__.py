"""``tfspore.ops.composite`` (usually ``C``): autodiff and higher-order operations."""
from tfspore.ops.composite._grad import GradOperation, grad, value_and_grad, vjp, jvp
from tfspore.ops.composite.base import MultitypeFuncGraph, HyperMap, Map, add_flags, core, env_get, zip_operation, tail
from tfspore.ops.function.math_func import (clip_by_value, clip_by_global_norm, count_nonzero, matmul, dot,  # noqa: F401
                                            cumprod)
from tfspore.ops.function.array_func import zeros_like, ones_like, repeat_elements, sequence_mask  # noqa: F401
from tfspore.ops.function.random_func import normal, uniform, gamma, poisson, multinomial  # noqa: F401
from tfspore.ops.function import tensor_dot  # noqa: F401

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "jvp", "MultitypeFuncGraph", "HyperMap", "Map",
           "add_flags", "core", "env_get", "zip_operation", "tail", "clip_by_value", "clip_by_global_norm",
           "count_nonzero", "matmul", "dot", "zeros_like", "ones_like", "repeat_elements", "sequence_mask", "normal",
           "uniform", "gamma", "poisson", "multinomial", "tensor_dot"]
