"""Shared pieces of the in-process parity tests against real MindSpore 2.10.

Import the warm-up fixture into a test module to have it run once per module::

    from tests.parity._ms_helpers import _warm_mindspore  # noqa: F401  (autouse fixture)

pytest collects fixtures from a module's namespace, so the imported fixture applies there.
"""
import numpy as np
import pytest

ms = pytest.importorskip("mindspore")

# name -> (numpy values, dtype attribute name); the values are exact in every dtype. Checkpoint and
# safetensors parity write and read back one Parameter per entry.
DTYPE_VALUES = {
    "f16": (np.array([[0.5, -1.25], [3.0, 65504.0]]), "float16"),
    "f32": (np.arange(6, dtype=np.float64).reshape(2, 3) / 8 - 0.3, "float32"),
    "f64": (np.array([np.pi, -np.e, 1e300]), "float64"),
    "bf16": (np.array([[1.0, 2.5, -3.0, 0.15625]]), "bfloat16"),
    "i8": (np.array([-128, 0, 127]), "int8"),
    "u8": (np.array([0, 255]), "uint8"),
    "i16": (np.array([-32768, 32767]), "int16"),
    "u16": (np.array([0, 65535]), "uint16"),
    "i32": (np.array([[-2 ** 31, 2 ** 31 - 1]]), "int32"),
    "u32": (np.array([0, 2 ** 32 - 1]), "uint32"),
    "i64": (np.array([-2 ** 63, 2 ** 63 - 1]), "int64"),
    "u64": (np.array([0, 2 ** 64 - 1], dtype=np.uint64), "uint64"),
    "flag": (np.array([True, False, True]), "bool_"),
    "scalar": (np.array(3.5), "float32"),
}


def warm_up_mindspore():
    """MindSpore 2.10 under numpy 2 fails the first Python-level tensor op of a process once; absorb it."""
    a = ms.Tensor(np.ones((2, 2), np.float32))
    for op in (lambda: a * a, lambda: a.reshape((4,)), lambda: a.sum()):
        for _ in range(2):
            try:
                op()
                break
            except SystemError:
                continue


@pytest.fixture(scope="module", autouse=True)
def _warm_mindspore():
    """Run :func:`warm_up_mindspore` before the first test of the module that imports this fixture."""
    warm_up_mindspore()


def np_value(x):
    """``x`` as a numpy array (a Tensor of either framework through ``asnumpy``)."""
    return x.asnumpy() if hasattr(x, "asnumpy") else np.asarray(x)


def weights_and_grads(shapes, steps, seed=0):
    """Random float32 start weights ``{name: array}`` for ``shapes`` and ``steps`` lists of gradients."""
    rng = np.random.default_rng(seed)
    w0 = {n: (rng.standard_normal(s) * 0.5).astype(np.float32) for n, s in shapes.items()}
    grads = [[(rng.standard_normal(s) * 0.3).astype(np.float32) for s in shapes.values()] for _ in range(steps)]
    return w0, grads


def make_params(fw, w0):
    """Parameters of framework ``fw`` (MindSpore or tfspore) holding copies of the arrays of ``w0``."""
    return [fw.Parameter(fw.Tensor(v.copy()), name=n) for n, v in w0.items()]
