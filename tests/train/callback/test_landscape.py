"""SummaryLandscape: loss landscapes from SummaryCollector's checkpoints, read back with TensorBoard's reader."""
import io
import json
import os

import numpy as np
import pytest
from PIL import Image
from tensorboard.util import tensor_util

import tfspore as ms
from tfspore import nn
from tfspore.dataset import NumpySlicesDataset
from tfspore.train import Loss, Model
from tfspore.train.callback import SummaryCollector, SummaryLandscape
from tfspore.train.callback._landscape import _pca_directions

INTERVAL = [1, 2, 3, 4]
LANDSCAPE = {"landscape_size": 3, "unit": "step", "num_samples": 8,
             "create_landscape": {"train": True, "result": True}, "intervals": [INTERVAL]}


class TinyNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(12, 3)

    def construct(self, x):
        return self.fc(self.flatten(x))


def _dataset():
    rng = np.random.RandomState(0)
    images = rng.randn(12, 3, 2, 2).astype(np.float32)
    labels = (np.arange(12) % 3).astype(np.int32)
    return NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(2)


def _loss_fn():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _callback_fn():
    network = TinyNet()
    metrics = {"Loss": Loss()}
    return Model(network, _loss_fn(), metrics=metrics), network, _dataset(), metrics


def _train(summary_dir, landscape=LANDSCAPE):
    net = TinyNet()
    model = Model(net, _loss_fn(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    collector = SummaryCollector(summary_dir, collect_freq=100, collect_specified_data={"collect_landscape": landscape})
    model.train(1, _dataset(), callbacks=[collector])


def _landscape_events(summary_dir):
    """The last landscape tensors (as arrays) and images of the run directory, read as TensorBoard reads a run."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(summary_dir, size_guidance={"tensors": 0, "images": 0})
    acc.Reload()
    values = {}
    for tag in acc.Tags()["tensors"]:
        if tag.startswith("landscape_"):
            values[tag] = tensor_util.make_ndarray(acc.Tensors(tag)[-1].tensor_proto)
    for tag in acc.Tags()["images"]:
        if tag.startswith("landscape_"):
            values[tag] = acc.Images(tag)[-1]
    return values


def _loss_at(params):
    """The mean loss over the first 4 batches (num_samples 8, batch 2) with the given parameter values."""
    network = TinyNet()
    for p in network.get_parameters():
        p.set_data(ms.Tensor(params[p.name].astype(np.float32)))
    with_loss = nn.WithLossCell(network, _loss_fn())
    losses = [with_loss(x, y).asnumpy() for x, y in _dataset().take(4).create_tuple_iterator()]
    return float(np.mean(losses))


@pytest.fixture
def trained(tmp_path):
    summary_dir = str(tmp_path / "summary")
    _train(summary_dir)
    return summary_dir


def test_landscapes_written_as_tensors_and_images(trained, mode):
    SummaryLandscape(trained).gen_landscapes_with_multi_process(_callback_fn, device_ids=[0, 1])
    values = _landscape_events(trained)
    train_tag, result_tag = "landscape_[1, 4]", "landscape_[4]"
    for tag in (train_tag, result_tag):
        assert values[f"{tag}/z"].shape == (3, 3)
        assert np.isfinite(values[f"{tag}/z"]).all()
        assert values[f"{tag}/x"].shape == (3,) and values[f"{tag}/y"].shape == (3,)
        contour = values[f"{tag}/contour"]
        assert (contour.step, contour.width, contour.height) == (0, 256, 256)
        pixels = np.asarray(Image.open(io.BytesIO(contour.encoded_image_string)).convert("RGB"))
        assert pixels.shape == (256, 256, 3)
        assert (pixels == (230, 20, 20)).all(axis=-1).sum() >= 9  # the convergence point's marker
        assert values[tag].width == 3  # the heat map of the grid
    # random directions: the middle of the grid is the final checkpoint itself
    assert values[f"{result_tag}/x"][1] == 0 and values[f"{result_tag}/y"][1] == 0
    final = {k: v.asnumpy() for k, v in ms.load_checkpoint(os.path.join(trained, "ckpt_dir",
                                                                         "TinyNet_4_step.ckpt")).items()}
    assert values[f"{result_tag}/z"][1, 1] == pytest.approx(_loss_at(final), rel=1e-5)


def test_pca_landscape_values(trained):
    """Every grid point of the PCA landscape is the loss at final + x * v + y * w, v and w the normalised
    principal directions of the checkpoints' trajectory."""
    SummaryLandscape(trained).gen_landscapes_with_multi_process(
        _callback_fn, collect_landscape={"create_landscape": {"train": True, "result": False}})
    values = _landscape_events(trained)
    ckpts = [{k: v.asnumpy() for k, v in ms.load_checkpoint(os.path.join(trained, "ckpt_dir",
                                                                         f"TinyNet_{i}_step.ckpt")).items()}
             for i in INTERVAL]
    names = ["fc.weight", "fc.bias"]
    flat = np.stack([np.concatenate([c[n].ravel() for n in names]) for c in ckpts]).astype(np.float64)
    offsets = flat[:-1] - flat[-1]
    # principal directions of the offsets, by the eigenvectors of their covariance
    centred = offsets.T - offsets.T.mean(axis=0)
    eigvals, eigvecs = np.linalg.eigh(centred.T @ centred)
    order = np.argsort(eigvals)[::-1][:2]
    components = centred @ eigvecs[:, order]  # = u * s
    for k in range(2):  # sign: largest entry positive
        if components[np.argmax(np.abs(components[:, k])), k] < 0:
            components[:, k] *= -1
    np.testing.assert_allclose(np.abs(_pca_directions(offsets.T, 2)), np.abs(components), rtol=1e-6, atol=1e-9)

    sizes = [ckpts[-1][n].size for n in names]
    directions = []
    for k in range(2):
        parts = np.split(components[:, k], np.cumsum(sizes)[:-1])
        directions.append({n: part.reshape(ckpts[-1][n].shape) * np.linalg.norm(ckpts[-1][n]) / np.linalg.norm(part)
                           for n, part in zip(names, parts)})
    basis = np.stack([np.concatenate([d[n].ravel() for n in names]) for d in directions]).T
    coefs = np.array([np.linalg.lstsq(basis, off, rcond=None)[0] for off in list(offsets) + [offsets[0] * 0]])
    span = coefs.max(axis=0) - coefs.min(axis=0)
    x_axis = np.linspace(coefs[:, 0].min() - 0.2 * span[0], coefs[:, 0].max() + 0.2 * span[0], 3)
    y_axis = np.linspace(coefs[:, 1].min() - 0.2 * span[1], coefs[:, 1].max() + 0.2 * span[1], 3)
    tag = "landscape_[1, 4]"
    np.testing.assert_allclose(values[f"{tag}/x"], x_axis, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(values[f"{tag}/y"], y_axis, rtol=1e-5, atol=1e-6)
    for i, y in enumerate(y_axis):
        for j, x in enumerate(x_axis):
            params = {n: ckpts[-1][n] + x * directions[0][n] + y * directions[1][n] for n in names}
            assert values[f"{tag}/z"][i, j] == pytest.approx(_loss_at(params), rel=1e-4), (i, j)
    assert "landscape_[4]/z" not in values


def test_collect_landscape_overrides_rewrite_the_metadata(trained):
    SummaryLandscape(trained).gen_landscapes_with_multi_process(
        _callback_fn, collect_landscape={"landscape_size": 4, "intervals": [[2, 3, 4]],
                                         "create_landscape": {"train": True, "result": False}})
    values = _landscape_events(trained)
    assert values["landscape_[2, 4]/z"].shape == (4, 4)
    with open(os.path.join(trained, "ckpt_dir", "train_metadata.json"), encoding="utf-8") as handle:
        meta = json.load(handle)
    assert meta["landscape_size"] == 4 and meta["epoch_group"] == {"0": [2, 3, 4]}


def test_output_directory_and_clean_ckpt(trained, tmp_path):
    landscape = SummaryLandscape(trained)
    landscape.gen_landscapes_with_multi_process(
        _callback_fn, collect_landscape={"create_landscape": {"train": False, "result": True}},
        output=str(tmp_path / "out"))
    assert set(_landscape_events(str(tmp_path / "out"))) == {
        "landscape_[4]", "landscape_[4]/contour", "landscape_[4]/x", "landscape_[4]/y", "landscape_[4]/z"}
    landscape.clean_ckpt()
    assert not os.path.exists(os.path.join(trained, "ckpt_dir"))


def test_epoch_unit_saves_per_epoch(tmp_path):
    summary_dir = str(tmp_path / "summary")
    net = TinyNet()
    model = Model(net, _loss_fn(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    landscape = dict(LANDSCAPE, unit="epoch", intervals=[[1, 2, 3]])
    model.train(3, _dataset(), callbacks=[SummaryCollector(summary_dir, collect_specified_data={
        "collect_landscape": landscape})])
    ckpt_dir = os.path.join(summary_dir, "ckpt_dir")
    assert sorted(os.listdir(ckpt_dir)) == ["TinyNet_1_epoch.ckpt", "TinyNet_2_epoch.ckpt", "TinyNet_3_epoch.ckpt",
                                            "train_metadata.json"]
    with open(os.path.join(ckpt_dir, "train_metadata.json"), encoding="utf-8") as handle:
        meta = json.load(handle)
    assert meta["unit"] == "epoch" and meta["step_per_epoch"] == 6


@pytest.mark.parametrize("kwargs,error,message", [
    ({"device_ids": [8]}, ValueError,
     'For "SummaryLandscape.gen_landscapes_with_multi_process", the parameter "device_ids" should be between 0 and '
     "7, but got 8."),
    ({"device_ids": ["0"]}, TypeError,
     'the parameter "device_ids" type should be int, but got the: <class \'str\'>.'),
    ({"device_ids": 0}, TypeError, "For 'SummaryLandscape', the 'device_ids' must be list, but got 0 of type int."),
    ({"collect_landscape": {"size": 3}}, ValueError,
     'For "SummaryLandscape", the key of collect landscape should be landscape_size, unit, num_samples '
     "create_landscape or intervals, but got the: size."),
    ({"collect_landscape": {"landscape_size": 300}}, ValueError,
     '"landscape_size" in train_metadata.json should be between 3 and 256, but got the: 300'),
    ({"collect_landscape": {"create_landscape": {"train": True}}}, ValueError,
     'the key of "create_landscape" should be train and result, but only got the: train'),
    ({"collect_landscape": {"intervals": [[1, 2]]}}, ValueError,
     'the length of each list in "intervals" should not be less than three, but got the: [1, 2].'),
])
def test_bad_arguments(trained, kwargs, error, message):
    with pytest.raises(error) as info:
        SummaryLandscape(trained).gen_landscapes_with_multi_process(_callback_fn, **kwargs)
    assert message in str(info.value)


def test_missing_metadata(tmp_path):
    with pytest.raises(FileNotFoundError, match="train_metadata.json file does not exist"):
        SummaryLandscape(str(tmp_path / "empty")).gen_landscapes_with_multi_process(_callback_fn)
    with pytest.raises(FileNotFoundError, match="train_metadata.json file path of .* not exists"):
        SummaryLandscape(str(tmp_path / "empty")).gen_landscapes_with_multi_process(
            _callback_fn, collect_landscape={"landscape_size": 3})


def test_checkpoints_missing_from_intervals(tmp_path):
    summary_dir = str(tmp_path / "summary")
    _train(summary_dir, dict(LANDSCAPE, intervals=[[4, 5, 6, 7]]))  # 6 steps ran: 7 was never saved
    with pytest.raises(ValueError, match='does not exist 7th checkpoint in intervals'):
        SummaryLandscape(summary_dir).gen_landscapes_with_multi_process(_callback_fn)


@pytest.mark.parity
@pytest.mark.parametrize("n_params", [120, 2000])
def test_pca_directions_match_mindspore(n_params):
    """The principal directions equal MindSpore 2.10's ``_PCA(2).compute`` (exact SVD for up to 500 parameters,
    its randomized SVD beyond, which converges to the same directions for a trajectory of a few checkpoints)."""
    landscape_module = pytest.importorskip("mindspore.train.callback._landscape",
                                           reason="needs mindspore==2.10.0 (pip install -e '.[parity]')")
    rng = np.random.RandomState(3)
    offsets = rng.randn(4, n_params) * np.array([[3.0], [2.0], [1.0], [0.5]])
    expected = landscape_module._PCA(n_comps=2).compute(offsets.T.copy())
    np.testing.assert_allclose(_pca_directions(offsets.T, 2), expected, rtol=1e-6, atol=1e-9)
