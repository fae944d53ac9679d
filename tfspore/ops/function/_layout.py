"""Old import path of :mod:`tfspore._internal.layout` (which kernels take NCHW data); import from there."""
from tfspore._internal.layout import (TO_NCHW, TO_NHWC, binary_through_nchw, concat_through_nchw,  # noqa: F401
                                      elementwise_through_nchw, gpu_visible, nchw_supported, to_nhwc,
                                      transposed_from)
