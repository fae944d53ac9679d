"""MindSpore 2.10's mixed-precision operator lists (``AMP_WHITE_LIST``, ``AMP_BLACK_LIST`` and the 'auto'
level's lists) and ``get_white_list`` / ``get_black_list``.

MindSpore's import path for them is ``tfspore.train.amp`` (and ``tfspore.amp``).
"""
from __future__ import annotations

from typing import Any

from tfspore import nn
from tfspore.ops import operations as P


def _present(module: Any, names: str) -> list:
    """The classes of ``module`` named in ``names`` that tfspore implements."""
    return [getattr(module, n) for n in names.split() if hasattr(module, n)]


AMP_WHITE_LIST = (_present(nn, "Conv1d Conv2d Conv3d Conv1dTranspose Conv2dTranspose Conv3dTranspose Dense LSTMCell "
                              "RNNCell GRUCell")
                  + _present(P, "Conv2D Conv3D Conv2DTranspose Conv3DTranspose Conv2DBackpropInput MatMul BatchMatMul "
                                "PReLU ReLU Ger"))


AMP_BLACK_LIST = _present(nn, "BatchNorm1d BatchNorm2d BatchNorm3d LayerNorm")


# The operator lists of the 'auto' strategy, by primitive name (MindSpore 2.10's lists).
AMP_AUTO_WHITE_LIST = ("Conv2D Conv2DExt Conv3D Conv3DExt ConvTranspose2D Conv2DTranspose Conv3DTranspose Convolution "
                       "MatMul MatMulExt BatchMatMul BatchMatMulExt PReLU Einsum Dense Addmm Addbmm Addmv Baddbmm "
                       "Mv").split()


AMP_AUTO_BLACK_LIST = ("Pow ACos Asin Cosh Erfinv Exp Expm1 Log Log10 Log1p Log2 Reciprocal Rsqrt Sinh Tan Softplus "
                       "SoftplusExt LayerNorm LayerNormExt BatchNorm BatchNormExt GroupNorm Norm KLDivLoss "
                       "SmoothL1Loss MultilabelMarginLoss SoftMarginLoss TripletMarginLoss MultiMarginLoss "
                       "BCEWithLogitsLoss Pdist Cdist Renorm ReduceProd Softmax LogSoftmax LogSoftmaxExt CumProd "
                       "CumSum CumsumExt ProdExt SumExt L1LossExt MSELossExt NLLLoss NLLLoss2d").split()


AMP_AUTO_PROMOTE_LIST = "Addcdiv Addcmul Cross Dot GridSampler2D GridSampler3D BiasAdd AddN Concat".split()


# tfspore layers compute with TensorFlow ops directly; these are the primitives their MindSpore
# counterparts call, so the primitive lists apply to the layers too.
_CELL_PRIMITIVE = {nn.ReLU: "ReLU", nn.PReLU: "PReLU"}


# 'auto' on CPU, by layer: (main operator, adds a float32 bias through the promote-list BiasAdd).
_AUTO_WHITE_CELLS = tuple(_present(nn, "Conv1d Conv2d Conv3d Conv1dTranspose Conv2dTranspose Conv3dTranspose Dense "
                                       "PReLU MatMul"))


_AUTO_BLACK_CELLS = tuple(_present(nn, "BatchNorm1d BatchNorm2d BatchNorm3d LayerNorm GroupNorm Softmax LogSoftmax "
                                       "Softplus"))


def get_white_list() -> list:
    """A copy of the O1 white list: the cells and primitives that O1 computes in low precision.

    Returns:
        list: ``[nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.Conv1dTranspose, nn.Conv2dTranspose, nn.Dense,
        nn.LSTMCell, nn.RNNCell, nn.GRUCell, ops.Conv2D, ops.Conv2DTranspose, ops.Conv2DBackpropInput,
        ops.MatMul, ops.BatchMatMul, ops.PReLU, ops.ReLU]`` (MindSpore's list, less the classes tfspore
        does not implement: nn.Conv3dTranspose, ops.Conv3D, ops.Conv3DTranspose, ops.Ger).

    Example:
        >>> from tfspore import amp, nn
        >>> nn.Dense in amp.get_white_list()
        True
    """
    return list(AMP_WHITE_LIST)


def get_black_list() -> list:
    """A copy of the O2 black list: the cells that O2 keeps in float32.

    Returns:
        list: ``[nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]``.

    Example:
        >>> from tfspore import amp, nn
        >>> amp.get_black_list()[1] is nn.BatchNorm2d
        True
    """
    return list(AMP_BLACK_LIST)
