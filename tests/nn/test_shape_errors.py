"""Shape mismatches at call time raise MindSpore's ValueError (not TensorFlow's InvalidArgumentError)."""
import re

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn


@pytest.mark.parametrize("shape", [(2, 5), (2, 3, 5)])
def test_dense_feature_mismatch(mode, shape):
    with pytest.raises(ValueError, match=r"'x1_col': 5 and 'x2_row': 4.*'Dense' got input shape"):
        nn.Dense(4, 3)(ms.Tensor(np.ones(shape, np.float32)))


@pytest.mark.parametrize("layer, shape", [(lambda: nn.BatchNorm2d(3), (2, 4, 2, 2)),
                                          (lambda: nn.BatchNorm1d(3), (2, 4))])
def test_batchnorm_channel_mismatch(mode, layer, shape):
    with pytest.raises(ValueError, match=r"channel dimension: 4, but got scale.shape\[0\]: 3"):
        layer()(ms.Tensor(np.ones(shape, np.float32)))


def test_matching_shapes_still_work(mode):
    assert nn.Dense(4, 3)(ms.Tensor(np.ones((2, 4), np.float32))).shape == (2, 3)
    assert nn.BatchNorm2d(3)(ms.Tensor(np.ones((2, 3, 2, 2), np.float32))).shape == (2, 3, 2, 2)


# ---------------------------------------------------------------- dtypes (issue 13: silent results before)
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
def test_dense_rejects_non_float_input(mode, dtype):
    with pytest.raises(TypeError, match=r"For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' with "
                                        r"type Tensor\[(Int32|Int64|Bool)\] and 'x2' with type Tensor\[Float32\]"
                                        r".*Dense"):
        nn.Dense(4, 3)(ms.Tensor(np.ones((2, 4), dtype)))


@pytest.mark.parametrize("layer, shape, prim", [(lambda: nn.Dense(4, 3), (2, 4), "MatMul"),
                                                (lambda: nn.Conv2d(4, 3, 3), (1, 4, 6, 6), "Conv2D"),
                                                (lambda: nn.Conv3d(4, 3, 3), (1, 4, 5, 5, 5), "Conv3D")])
def test_float64_input_to_float32_layer_is_refused(mode, layer, shape, prim):
    # MindSpore 2.10: TypeError ("For 'MatMul', the type of 'x2' should be same as 'x1'", "For primitive[Conv2D],
    # the input type must be same"); numpy's float64 default used to be computed in float64 silently.
    with pytest.raises(TypeError, match=rf"For '{prim}', the type of the input should be same as the weight's, but "
                                        r"got input with type Tensor\[float64\] and weight with type "
                                        r"Tensor\[float32\]"):
        layer()(ms.Tensor(np.ones(shape, np.float64)))


def test_float64_input_with_to_float_is_cast(mode):
    out = nn.Dense(4, 3).to_float(ms.float32)(ms.Tensor(np.ones((2, 4), np.float64)))
    assert out.dtype == ms.float32


def test_matmul_primitive_rejects_int_with_float(mode):
    from tfspore import ops
    with pytest.raises(TypeError, match=r"Tensor\[Int32\] and 'x2' with type Tensor\[Float32\]"):
        ops.MatMul()(ms.Tensor(np.ones((2, 4), np.int32)), ms.Tensor(np.ones((4, 3), np.float32)))


@pytest.mark.parametrize("reduction, prim", [("mean", "SparseSoftmaxCrossEntropyWithLogits"), ("none", "OneHot"),
                                             ("sum", "OneHot")])
@pytest.mark.parametrize("dtype, name", [(np.float32, "Float32"), (np.int16, "Int16"), (np.uint8, "UInt8")])
def test_sparse_cross_entropy_rejects_non_int32_int64_labels(mode, reduction, prim, dtype, name):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction=reduction)
    logits = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match=rf"For primitive\[{prim}\].*but got Tensor\[{name}\]"):
        loss(logits, ms.Tensor(np.array([1.9, 0.2]).astype(dtype)))


def test_sparse_cross_entropy_int_labels_still_work(mode):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    out = loss(ms.Tensor(np.zeros((2, 3), np.float32)), ms.Tensor(np.array([1, 0], np.int64)))
    np.testing.assert_allclose(out.asnumpy(), np.log(3.0), rtol=1e-6)


def test_dense_cross_entropy_shape_mismatch(mode):
    with pytest.raises(ValueError, match=r"'label' shape: \(2, 4\), 'logits' shape: \(2, 3\)"):
        nn.SoftmaxCrossEntropyWithLogits()(ms.Tensor(np.ones((2, 3), np.float32)),
                                           ms.Tensor(np.ones((2, 4), np.float32)))


def test_regression_loss_broadcast_mismatch(mode):
    with pytest.raises(ValueError, match=r"For 'Sub', logits.shape and labels.shape need to broadcast.*"
                                         r"logits.shape = \(2, 3\) and labels.shape = \(4, 3\)"):
        nn.MSELoss()(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((4, 3), np.float32)))


@pytest.mark.parametrize("layer, shape, err", [(lambda: nn.Conv2d(3, 4, 3), (1, 4, 8, 8), RuntimeError),
                                               (lambda: nn.Conv1d(3, 4, 3), (1, 4, 8), RuntimeError),
                                               (lambda: nn.Conv3d(3, 4, 3), (1, 4, 4, 4, 4), ValueError)])
def test_conv_channel_mismatch_raises_mindspores_type(mode, layer, shape, err):
    # MindSpore 2.10: Conv2D (behind Conv1d / Conv2d) raises RuntimeError, Conv3D ValueError
    with pytest.raises(err, match=rf"'in_channels' 3, but got input shape {re.escape(str(shape))}"):
        layer()(ms.Tensor(np.ones(shape, np.float32)))
