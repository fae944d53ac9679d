"""Builds dataset pipelines and transforms from JSON specs and writes their outputs to an .npz.

Run it with MindSpore's own environment (MindSpore 2.10's dataset module needs numpy < 2)::

    .venv-msds/bin/python tests/parity/dataset_ms_runner.py SPEC.json OUT.npz

The parity tests import the same module to build the tfspore side from the same specs, so
both sides interpret a spec with the same code. A spec file is ``{"cases": {case_id: case}}``:

* pipeline cases: ``{"kind": "pipeline", "source": {"type": "MnistDataset", "args": [...],
  "kwargs": {...}}, "ops": [{"op": "map", "args": [...], "kwargs": {...}}, ...],
  "max_rows": 16}``;
* eager cases: ``{"kind": "eager", "op": <op>, "inputs": [<value>, ...]}``;
* the training guide's ``create_dataset``: ``{"kind": "guide", "data_path": ..., "batch_size": 32}``.

Values are JSON, with tagged objects: ``{"tuple": [...]}``, ``{"enum": "Inter.LINEAR"}``,
``{"mstype": "int32"}``, ``{"np_dtype": "float16"}``, ``{"array": [...], "dtype": "uint8"}``,
``{"random": [h, w, c], "seed": 0, "dtype": "uint8"}`` (a seeded random array),
``{"encoded": "PNG", "random": [...], "seed": 0}`` (an encoded image as a 1-D uint8 array),
``{"op": "vision.Resize", "args": [...], "kwargs": {...}}`` (a transform) and
``{"generator": name, "args": [...]}`` (a GeneratorDataset source defined below),
``{"function": name}`` (a Python function defined below, e.g. a ``collate_fn``).

Output: for case ``c``, ``c::meta`` (JSON text: columns, size, types, shapes, rows, or error)
and ``c::r{i}::{j}`` for column ``j`` of row ``i`` (eager cases: ``c::out::{j}``).
"""
from __future__ import annotations

import io
import json
import sys
import traceback
from typing import Any, Dict

import numpy as np

# ------------------------------------------------------------------------------------ sources
GUIDE_CREATE_DATASET = '''
def create_dataset(data_path, batch_size=32, repeat_size=1,
                   num_parallel_workers=1):
    """
    create dataset for train or test
    """
    # define dataset
    mnist_ds = ds.MnistDataset(data_path)

    resize_height, resize_width = 32, 32
    rescale = 1.0 / 255.0
    shift = 0.0
    rescale_nml = 1 / 0.3081
    shift_nml = -1 * 0.1307 / 0.3081

    # define map operations
    resize_op = CV.Resize((resize_height, resize_width), interpolation=Inter.LINEAR)  # Bilinear mode
    rescale_nml_op = CV.Rescale(rescale_nml, shift_nml)
    rescale_op = CV.Rescale(rescale, shift)
    hwc2chw_op = CV.HWC2CHW()
    type_cast_op = CT.TypeCast(mstype.int32)

    # apply map operations on images
    mnist_ds = mnist_ds.map(input_columns="label", operations=type_cast_op, num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(input_columns="image", operations=resize_op, num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(input_columns="image", operations=rescale_op, num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(input_columns="image", operations=rescale_nml_op, num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(input_columns="image", operations=hwc2chw_op, num_parallel_workers=num_parallel_workers)

    # apply DatasetOps
    buffer_size = 10000
    mnist_ds = mnist_ds.shuffle(buffer_size=buffer_size)  # 10000 as in LeNet train script
    mnist_ds = mnist_ds.batch(batch_size, drop_remainder=True)
    mnist_ds = mnist_ds.repeat(repeat_size)

    return mnist_ds
'''

GUIDE_IMPORTS = '''
import mindspore.dataset as ds
import mindspore.dataset.transforms.c_transforms as CT
import mindspore.dataset.vision.c_transforms as CV
from mindspore.common import dtype as mstype
from mindspore.dataset.vision import Inter
'''


class MyDataset:
    """The migration guide's random-access dataset (with its __getitem__ fixed)."""

    def __init__(self, n):
        self.data = []
        self.label = []
        for i in range(n):
            self.data.append(np.full((3, 4, 5), i, dtype=np.float64))
            self.label.append(np.ones((1)) * i)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]


def counting(n):
    """A generator callable yielding Python ints and floats and numpy arrays."""
    def gen():
        for i in range(n):
            yield i, float(i) / 2, np.arange(i, i + 3, dtype=np.int32)
    return gen


class Iterable:
    """An iterable (not random-access) source."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield (np.array([i, i * i], dtype=np.float32),)


class IndexEcho:
    """A random-access source whose rows are built from the index ``__getitem__`` receives."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        ids = np.asarray(index)
        return (ids * 10).astype(np.int32), np.array(ids.ndim, np.int32), np.array(type(index).__name__)


GENERATORS = {"my_dataset": MyDataset, "counting": counting, "iterable": Iterable, "index_echo": IndexEcho}


def scale_and_count(data, label):
    """A GeneratorDataset collate_fn: each argument is one column's rows (a list of arrays)."""
    return np.stack(data) * 2, np.array([len(label), int(sum(float(x[0]) for x in label))], np.int32)


FUNCTIONS = {"scale_and_count": scale_and_count}


# ------------------------------------------------------------------------------------ values
def random_array(shape, seed, dtype):
    rng = np.random.RandomState(seed)
    dtype = np.dtype(dtype)
    if dtype == np.uint8:
        return rng.randint(0, 256, size=shape).astype(np.uint8)
    if dtype.kind in "iu":
        return rng.randint(0, 100, size=shape).astype(dtype)
    return (rng.rand(*shape) * 255).astype(dtype)


def encode_image(fmt, arr):
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format=fmt)
    return np.frombuffer(buf.getvalue(), dtype=np.uint8).copy()


class Namespace:
    """The framework a spec is built with: dataset module, vision, transforms, dtype module."""

    def __init__(self, ds, vision, transforms, mstype):
        self.ds = ds
        self.vision = vision
        self.transforms = transforms
        self.mstype = mstype


def decode(value: Any, ns: Namespace) -> Any:
    if isinstance(value, list):
        return [decode(v, ns) for v in value]
    if not isinstance(value, dict):
        return value
    if "tuple" in value:
        return tuple(decode(v, ns) for v in value["tuple"])
    if "enum" in value:
        cls, member = value["enum"].split(".")
        return getattr(getattr(ns.vision, cls), member)
    if "mstype" in value:
        return getattr(ns.mstype, value["mstype"])
    if "np_dtype" in value:
        return getattr(np, value["np_dtype"])
    if "encoded" in value:
        return encode_image(value["encoded"], random_array(value["random"], value["seed"], "uint8"))
    if "random" in value:
        return random_array(value["random"], value["seed"], value.get("dtype", "uint8"))
    if "array" in value:
        return np.array(value["array"], dtype=value.get("dtype"))
    if "op" in value:
        module, name = value["op"].split(".")
        cls = getattr(getattr(ns, module), name)
        return cls(*decode(value.get("args", []), ns), **decode_kwargs(value.get("kwargs", {}), ns))
    if "generator" in value:
        return GENERATORS[value["generator"]](*value.get("args", []))
    if "function" in value:
        return FUNCTIONS[value["function"]]
    if "dict" in value:
        return {k: decode(v, ns) for k, v in value["dict"].items()}
    raise ValueError(f"unknown tagged value {value!r}")


def decode_kwargs(kwargs: Dict[str, Any], ns: Namespace) -> Dict[str, Any]:
    return {k: decode(v, ns) for k, v in kwargs.items()}


def build_pipeline(case: Dict[str, Any], ns: Namespace):
    src = case["source"]
    cls = getattr(ns.ds, src["type"])
    data = cls(*decode(src.get("args", []), ns), **decode_kwargs(src.get("kwargs", {}), ns))
    for op in case.get("ops", []):
        data = getattr(data, op["op"])(*decode(op.get("args", []), ns), **decode_kwargs(op.get("kwargs", {}), ns))
    return data


def guide_dataset(case: Dict[str, Any], module_prefix: str):
    """The training guide's create_dataset, unmodified, under `module_prefix` (mindspore or tfspore)."""
    if module_prefix == "mindspore":
        # MindSpore 2.x dropped the 1.x c_transforms modules the guide imports; they were the same classes.
        import importlib  # pylint: disable=import-outside-toplevel
        for legacy, current in (("mindspore.dataset.transforms.c_transforms", "mindspore.dataset.transforms"),
                                ("mindspore.dataset.vision.c_transforms", "mindspore.dataset.vision")):
            try:
                importlib.import_module(legacy)
            except ImportError:
                sys.modules[legacy] = importlib.import_module(current)
    scope: Dict[str, Any] = {}
    exec(GUIDE_IMPORTS.replace("mindspore", module_prefix), scope)  # pylint: disable=exec-used
    exec(GUIDE_CREATE_DATASET, scope)  # pylint: disable=exec-used
    return scope["create_dataset"](case["data_path"], batch_size=case.get("batch_size", 32))


def collect(data, max_rows: int):
    """Metadata and the first `max_rows` rows of a dataset."""
    meta = {"columns": list(data.get_col_names()), "size": int(data.get_dataset_size())}
    meta["types"] = [np.dtype(t).str if np.dtype(t).kind not in "USO" else "str" for t in data.output_types()]
    meta["shapes"] = [list(map(int, s)) for s in data.output_shapes()]
    rows = []
    for i, row in enumerate(data.create_tuple_iterator(output_numpy=True, num_epochs=1)):
        if i >= max_rows:
            break
        rows.append([np.asarray(x) for x in row])
    meta["rows"] = len(rows)
    return meta, rows


def to_arrays(out) -> list:
    if isinstance(out, tuple):
        return [np.asarray(o) for o in out]
    return [np.asarray(out)]


def run_case(case: Dict[str, Any], ns: Namespace, module_prefix: str):
    """Returns (meta, rows) where rows is a list of lists of arrays."""
    kind = case["kind"]
    if kind == "eager":
        op = decode(case["op"], ns)
        inputs = decode(case["inputs"], ns)
        out = to_arrays(op(*inputs))
        return {"outputs": len(out)}, [out]
    if kind == "guide":
        return collect(guide_dataset(case, module_prefix), case.get("max_rows", 1000))
    return collect(build_pipeline(case, ns), case.get("max_rows", 16))


def encode_str(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind in "SO":
        return arr.astype(str)
    return arr


def main(argv) -> int:
    spec_path, out_path = argv[1], argv[2]
    with open(spec_path, "r", encoding="utf-8") as f:
        spec = json.load(f)
    import mindspore.dataset as ms_ds  # pylint: disable=import-outside-toplevel
    import mindspore.dataset.transforms as ms_transforms  # pylint: disable=import-outside-toplevel
    import mindspore.dataset.vision as ms_vision  # pylint: disable=import-outside-toplevel
    from mindspore.common import dtype as ms_mstype  # pylint: disable=import-outside-toplevel

    ns = Namespace(ms_ds, ms_vision, ms_transforms, ms_mstype)
    out: Dict[str, np.ndarray] = {}
    for case_id, case in spec["cases"].items():
        try:
            meta, rows = run_case(case, ns, "mindspore")
            for i, row in enumerate(rows):
                for j, value in enumerate(row):
                    out[f"{case_id}::r{i}::{j}"] = encode_str(value)
        except Exception as exc:  # pylint: disable=broad-except
            meta = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        out[f"{case_id}::meta"] = np.array(json.dumps(meta))
    np.savez(out_path, **out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
