"""Shared test fixtures: every test starts in PYNATIVE_MODE with a fixed seed."""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402

# Two logical CPUs, so tf.distribute tests can run a real two-replica MirroredStrategy.
tf.config.set_logical_device_configuration(tf.config.list_physical_devices("CPU")[0],
                                           [tf.config.LogicalDeviceConfiguration()] * 2)

import tfspore as ms  # noqa: E402


@pytest.fixture(autouse=True)
def _reset_context():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(1)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    """Run a test in both execution modes."""
    ms.set_context(mode=request.param)
    return request.param


@pytest.fixture(scope="session")
def mirrored_strategy():
    """One two-replica MirroredStrategy per process: TF's collective instance keys are per process,
    and a second strategy's collectives can collide with the first one's."""
    devices = [d.name for d in tf.config.list_logical_devices("CPU")][:2]
    assert len(devices) == 2, "the logical CPU configuration above gives two devices"
    return tf.distribute.MirroredStrategy(devices)
