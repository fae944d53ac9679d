"""``mindspore.numpy``: numpy-like functions on tfspore Tensors, computed with TensorFlow ops.

Every function works eagerly (PYNATIVE_MODE) and inside compiled functions (GRAPH_MODE,
``tf.function``), takes Tensors, python scalars and (nested) lists, and returns tfspore Tensors
with ``mindspore.numpy``'s dtypes: python ints become int32 and floats float32; ``ones``,
``zeros``, ``eye``, ``linspace`` and friends default to float32.

Example:
    >>> import tfspore.numpy as mnp
    >>> mnp.arange(3)
    Tensor(shape=[3], dtype=Int32, value= [0, 1, 2])
    >>> mnp.zeros((2, 2)).dtype
    mindspore.float32
"""
from tfspore.numpy.array_ops import (where, unique, take_along_axis, take, repeat, select, choose, piecewise,
                                     unravel_index, argwhere, intersect1d, apply_along_axis, apply_over_axes,
                                     transpose, expand_dims, squeeze, rollaxis, swapaxes, reshape, ravel,
                                     concatenate, atleast_1d, atleast_2d, atleast_3d, column_stack, hstack, dstack,
                                     vstack, stack, moveaxis, tile, broadcast_to, broadcast_arrays, roll, append,
                                     split, vsplit, flip, flipud, fliplr, hsplit, dsplit, rot90, array_split, size,
                                     array_str)
from tfspore.numpy.array_creations import copy_ as copy
from tfspore.numpy.array_creations import (array, asarray, asfarray, ones, zeros, full, randn, rand, randint,
                                           linspace, logspace, eye, identity, empty, empty_like, arange, ones_like,
                                           zeros_like, full_like, diagonal, tril, triu, tri, trace, meshgrid, mgrid,
                                           ogrid, diagflat, diag, diag_indices, ix_, indices, geomspace, vander,
                                           hamming, hanning, bartlett, blackman, triu_indices, tril_indices,
                                           triu_indices_from, tril_indices_from, histogram_bin_edges, pad)
from tfspore.numpy.dtypes import (int_, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float_,
                                  float16, float32, float64, bool_, inf, nan, pi, numeric_types, PINF, NINF)
from tfspore.numpy.math_ops import (add, subtract, multiply, divide, true_divide, power, absolute, minimum, square,
                                    sqrt, reciprocal, log, maximum, heaviside, hypot, float_power, floor, deg2rad,
                                    rad2deg, positive, negative, clip, floor_divide, remainder, fix, fmod, trunc, exp,
                                    expm1, exp2, promote_types, divmod_, cbrt, ceil, gcd, lcm, log1p, logaddexp,
                                    log2, logaddexp2, log10, sin, cos, tan, arcsin, arccos, arctan, sinh, cosh, tanh,
                                    arcsinh, arccosh, arctanh, arctan2, sign, copysign, around, result_type,
                                    bitwise_and, bitwise_or, bitwise_xor, invert, rint, radians, mean, std, var,
                                    average, amax, amin, ptp, count_nonzero, diff, trapz, ediff1d, nansum, nanmean,
                                    nanvar, nanstd, cumsum, nancumsum, nanmax, nanmin, argmax, argmin, sum_, gradient,
                                    cumprod, norm, inner, dot, outer, tensordot, matmul, kron, cross, convolve, cov,
                                    multi_dot, corrcoef, matrix_power, polyadd, polysub, polyval, polyder, polymul,
                                    polyint, correlate, searchsorted, interp, digitize, bincount, histogram,
                                    histogramdd, histogram2d, unwrap, ravel_multi_index)
from tfspore.numpy import fft
from tfspore.numpy.logic_ops import (not_equal, less_equal, less, greater_equal, greater, equal, isfinite, isnan,
                                     isinf, isposinf, isneginf, isscalar, logical_and, logical_not, logical_or,
                                     logical_xor, in1d, isin, isclose, signbit, sometrue, array_equal, array_equiv,
                                     setdiff1d)

mod = remainder
fabs = absolute
round = around  # noqa: A001  (MindSpore's name)
divmod = divmod_  # noqa: A001
abs = absolute  # noqa: A001
max = amax  # noqa: A001
min = amin  # noqa: A001
sum = sum_  # noqa: A001
bitwise_not = invert
del divmod_, sum_

array_ops_module = ["transpose", "expand_dims", "squeeze", "rollaxis", "swapaxes", "reshape", "ravel", "concatenate",
                    "where", "atleast_1d", "atleast_2d", "atleast_3d", "column_stack", "hstack", "dstack", "vstack",
                    "stack", "unique", "moveaxis", "tile", "broadcast_to", "broadcast_arrays", "append", "roll",
                    "split", "vsplit", "flip", "flipud", "fliplr", "hsplit", "dsplit", "take_along_axis", "take",
                    "repeat", "rot90", "select", "array_split", "choose", "size", "array_str", "apply_along_axis",
                    "piecewise", "unravel_index", "apply_over_axes", "argwhere", "intersect1d"]

array_creations_module = ["array", "asarray", "asfarray", "ones", "zeros", "full", "randn", "rand", "randint",
                          "arange", "linspace", "logspace", "eye", "identity", "empty", "empty_like", "ones_like",
                          "zeros_like", "full_like", "diagonal", "tril", "triu", "tri", "trace", "meshgrid", "mgrid",
                          "ogrid", "diagflat", "diag", "diag_indices", "ix_", "indices", "geomspace", "vander",
                          "hamming", "hanning", "bartlett", "blackman", "triu_indices", "tril_indices",
                          "triu_indices_from", "tril_indices_from", "histogram_bin_edges", "pad"]

math_module = ["mean", "inner", "add", "subtract", "multiply", "divide", "true_divide", "power", "dot", "outer",
               "tensordot", "absolute", "std", "var", "average", "not_equal", "minimum", "matmul", "square", "sqrt",
               "reciprocal", "log", "maximum", "heaviside", "amax", "amin", "hypot", "float_power", "floor", "ptp",
               "deg2rad", "rad2deg", "count_nonzero", "positive", "negative", "clip", "floor_divide", "remainder",
               "mod", "fix", "fmod", "trunc", "exp", "expm1", "fabs", "exp2", "kron", "promote_types", "divmod",
               "diff", "cbrt", "cross", "ceil", "trapz", "abs", "max", "min", "gcd", "lcm", "log1p", "logaddexp",
               "log2", "logaddexp2", "log10", "convolve", "ediff1d", "nansum", "nanmean", "nanvar", "nanstd",
               "cumsum", "nancumsum", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
               "arcsinh", "arccosh", "arctanh", "arctan2", "cov", "multi_dot", "nanmax", "nanmin", "argmax",
               "argmin", "searchsorted", "interp", "sum", "corrcoef", "gradient", "sign", "copysign", "radians",
               "digitize", "bincount", "histogram", "histogramdd", "histogram2d", "polyadd", "polysub", "polyval",
               "polyder", "polymul", "polyint", "result_type", "unwrap", "cumprod", "ravel_multi_index", "norm",
               "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "bitwise_not", "rint", "correlate"]

logic_module = ["not_equal", "less_equal", "less", "greater_equal", "greater", "equal", "isfinite", "isnan", "isinf",
                "isposinf", "isneginf", "isscalar", "logical_and", "logical_not", "logical_or", "logical_xor", "in1d",
                "isin", "isclose", "signbit", "sometrue", "array_equal", "array_equiv", "setdiff1d"]

# MindSpore's list: ``copy``, ``round`` and the constants are attributes, not part of ``__all__``
__all__ = sorted(array_ops_module + array_creations_module + math_module + logic_module + numeric_types)
