"""map(..., python_multiprocessing=True) in worker processes (tfspore/dataset/engine/_process_map.py)
and GeneratorDataset batches through Python maps (tfspore/dataset/engine/_generator_batches.py)."""
import os

import numpy as np
import pytest

import tfspore.dataset as ds
from tfspore.dataset.engine._process_map import ProcessMap


def _rows(data):
    return [[np.asarray(c) for c in row] for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def _square_and_pid(x):
    return x * x, np.int64(os.getpid())


class _Source:
    def __init__(self, n=20):
        self.n = n

    def __getitem__(self, i):
        i = int(i)
        return np.full((3, 2), i, np.int32), np.int64(i)

    def __len__(self):
        return self.n


def test_process_map_calls_in_other_processes_and_raises_their_errors():
    mapped = ProcessMap(lambda x: (x + 1, os.getpid()), 2)
    assert mapped.pids == []
    value, pid = mapped(41)
    assert value == 42 and pid != os.getpid() and pid in mapped.pids

    def fail(x):
        raise KeyError(f"no {x}")

    with pytest.raises(KeyError, match="no 7"):
        ProcessMap(fail, 2)(7)
    mapped.close()


def test_multiprocessing_map_gives_the_same_rows_in_the_same_order():
    xs = np.arange(24, dtype=np.int64)
    plain = ds.NumpySlicesDataset({"x": xs}, shuffle=False).map(_square_and_pid, "x", ["y", "pid"])
    procs = ds.NumpySlicesDataset({"x": xs}, shuffle=False).map(_square_and_pid, "x", ["y", "pid"],
                                                                 num_parallel_workers=2, python_multiprocessing=True)
    want, got = _rows(plain), _rows(procs)
    assert [int(r[0]) for r in got] == [int(r[0]) for r in want] == [x * x for x in range(24)]
    assert {int(r[1]) for r in want} == {os.getpid()}
    assert os.getpid() not in {int(r[1]) for r in got}


@pytest.mark.parametrize("multiprocessing", [False, True])
def test_generator_python_maps_batch_like_the_per_row_pipeline(multiprocessing):
    def build(batch):
        data = ds.GeneratorDataset(_Source(), ["data", "label"], shuffle=False)
        data = data.map(lambda d: d * 2, input_columns="data", num_parallel_workers=2,
                        python_multiprocessing=multiprocessing)
        data = data.map(lambda d, l: (d + 1, l * 10, np.float32(l)), input_columns=["data", "label"],
                        output_columns=["data", "label", "extra"], num_parallel_workers=2,
                        python_multiprocessing=multiprocessing)
        return data.batch(6) if batch else data

    rows = _rows(build(False))
    batches = _rows(build(True))
    assert [len(b[0]) for b in batches] == [6, 6, 6, 2]
    assert build(True).get_col_names() == ["data", "label", "extra"]
    for k in range(3):
        np.testing.assert_array_equal(np.concatenate([b[k] for b in batches]), np.stack([r[k] for r in rows]))
    assert batches[0][2].dtype == np.float32


def test_generator_batches_follow_the_sampler():
    ds.config.set_seed(3)
    data = ds.GeneratorDataset(_Source(), ["data", "label"], shuffle=True).map(lambda d: d + 1, "data").batch(5)
    labels = np.concatenate([b[1] for b in _rows(data)])
    assert sorted(labels.tolist()) == list(range(20)) and labels.tolist() != list(range(20))


@pytest.mark.parametrize("multiprocessing", [False, True])
def test_errors_in_batched_python_maps_name_the_callable_and_the_row(multiprocessing):
    def explode(d):
        if int(d.flat[0]) == 7:
            raise ZeroDivisionError("row seven")
        return d

    data = ds.GeneratorDataset(_Source(), ["data", "label"], shuffle=False)
    data = data.map(explode, "data", num_parallel_workers=2, python_multiprocessing=multiprocessing).batch(4)
    with pytest.raises(RuntimeError, match=r"Exception thrown from dataset pipeline[\s\S]*MapDataset.*explode.*"
                                           r"ZeroDivisionError: row seven.*row 7") as info:
        _rows(data)
    assert isinstance(info.value.__cause__, ZeroDivisionError)

    class Broken(_Source):
        def __getitem__(self, i):
            if int(i) == 3:
                raise KeyError("no row here")
            return super().__getitem__(i)

    data = ds.GeneratorDataset(Broken(), ["data", "label"], shuffle=False).map(lambda d: d, "data").batch(4)
    with pytest.raises(RuntimeError, match=r"Broken.__getitem__.*KeyError.*no row here.*index 3"):
        _rows(data)


def test_rows_of_different_shapes_in_a_batch_fail_with_a_shape_error():
    class Ragged(_Source):
        def __getitem__(self, i):
            return np.zeros(int(i) + 1, np.float32), np.int64(i)

    data = ds.GeneratorDataset(Ragged(4), ["data", "label"], shuffle=False).map(lambda d: d, "data").batch(2)
    with pytest.raises(RuntimeError, match=r"Exception thrown from dataset pipeline[\s\S]*same shape"):
        _rows(data)


def test_workers_exit_when_their_process_dies_without_closing_them(tmp_path):
    """All workers exit after their process's os._exit, also one stuck in its function."""
    import subprocess
    import sys
    import time
    pid_file = tmp_path / "pids"
    code = (
        "import os\n"
        "from tfspore.dataset.engine._process_map import ProcessMap\n"
        "import threading, time\n"
        "maps = [ProcessMap(lambda x: x, 2) for _ in range(2)]\n"
        "for m in maps:\n    m(1)\n"
        "maps.append(ProcessMap(lambda x: time.sleep(3600), 1))\n"
        "threading.Thread(target=maps[-1], args=(1,), daemon=True).start()\n"
        "while not maps[-1].pids:\n    time.sleep(0.05)\n"
        "time.sleep(0.5)\n"
        f"open({str(pid_file)!r}, 'w').write(' '.join(str(p) for m in maps for p in m.pids))\n"
        "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    pids = [int(p) for p in pid_file.read_text().split()]
    assert len(pids) == 5

    def alive(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().split()[2] != "Z"
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 15
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in pids if alive(p)]
