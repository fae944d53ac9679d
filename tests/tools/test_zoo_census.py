"""tools/zoo_census.py on a tiny synthetic zoo."""
import json
import textwrap

import pytest

from tools import zoo_census

_NET_A_TRAIN = """
import numpy as np
import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor, context
from mindspore.ops import operations as P
import mindspore.common.dtype as mstype
from mindspore.train.callback import LossMonitor
import mindspore.dataset.vision.c_transforms as C


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = ms.nn.Dense(2, 2)
        self.mean = P.ReduceMean()
        self.crop = C.RandomCrop(4)

    def construct(self, x):
        return nn.Cell.construct(self, x)


def head(optimizer: nn.Optimizer):
    return nn.NoSuchLayerForCensus


x = Tensor(np.ones(2), mstype.float32).asnumpy()
context.set_context(mode=context.GRAPH_MODE)
"""

_NET_B_MODEL = """
from mindspore import nn
from mindspore.ops import composite as C


def shadowed(nn):
    return nn.NotAMindSporeName


class Loss(nn.Cell):
    pass


grad = C.GradOperation(get_all=True)
layer = nn.Dense
P = nn
P.ReLU
"""

_NET_B_DATA = """
import mindspore.dataset.transforms as C
from mindspore.nn import NoSuchLayerForCensus

type_cast = C.TypeCast
"""


def _write(root, rel, source):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))


@pytest.fixture(scope="module")
def zoo(tmp_path_factory):
    root = tmp_path_factory.mktemp("zoo")
    _write(root, "official/cv/NetA/train.py", _NET_A_TRAIN)
    _write(root, "research/nlp/NetB/src/model.py", _NET_B_MODEL)
    _write(root, "research/nlp/NetB/src/data.py", _NET_B_DATA)
    # Skipped: Ascend-310 / SDK inference, ModelArts, 310 pre/post-processing, ONNX.
    skipped = "from mindspore import SkippedNameForCensus\n"
    for rel in ("official/cv/NetA/infer/sdk/main.py", "official/cv/NetA/ascend310_infer/run.py",
                "official/cv/NetA/modelarts/start.py", "official/cv/NetA/postprocess.py",
                "official/cv/NetA/eval_onnx.py", "official/cv/NetA/src/eval310.py",
                "official/cv/NetA/helper_infer/util.py"):
        _write(root, rel, skipped)
    # Not in a model folder.
    _write(root, "official/cv/loose.py", skipped)
    _write(root, "utils/tool.py", skipped)
    _write(root, "research/nlp/NetB/bad.py", "def broken(:\n")
    return root


@pytest.fixture(scope="module")
def result(zoo):  # pylint: disable=redefined-outer-name
    return zoo_census.census(str(zoo))


def _rows(result):  # pylint: disable=redefined-outer-name
    return {row["name"]: row for row in result["names"]}


def test_names_counts_and_examples(result):  # pylint: disable=redefined-outer-name
    rows = _rows(result)
    assert rows["mindspore.nn.Dense"]["folders"] == 2
    assert rows["mindspore.nn.Dense"]["folder_list"] == ["official/cv/NetA", "research/nlp/NetB"]
    assert rows["mindspore.nn.Dense"]["example"] == "official/cv/NetA/train.py"
    assert rows["mindspore.nn.Cell"]["folders"] == 2
    assert rows["mindspore.ops.operations.ReduceMean"]["folders"] == 1
    assert rows["mindspore.common.dtype.float32"]["folders"] == 1
    assert rows["mindspore.dataset.vision.c_transforms.RandomCrop"]["folders"] == 1
    assert rows["mindspore.dataset.transforms.TypeCast"]["example"] == "research/nlp/NetB/src/data.py"
    assert rows["mindspore.ops.composite.GradOperation"]["folders"] == 1
    assert rows["mindspore.train.callback.LossMonitor"]["folders"] == 1
    assert rows["mindspore.train.callback"]["folders"] == 1
    assert rows["mindspore.nn.Optimizer"]["folders"] == 1  # from an annotation
    assert rows["mindspore.nn.ReLU"]["folders"] == 1  # through the rebinding P = nn
    assert rows["mindspore.context.GRAPH_MODE"]["folders"] == 1
    assert rows["mindspore.nn.NoSuchLayerForCensus"]["folders"] == 2
    # Sorted by folder count, then name.
    keys = [(-row["folders"], row["name"]) for row in result["names"]]
    assert keys == sorted(keys)


def test_chains_stop_at_objects_and_skip_shadowed_names(result):  # pylint: disable=redefined-outer-name
    names = set(_rows(result))
    assert "mindspore.nn.Cell.construct" not in names
    assert "mindspore.Tensor.asnumpy" not in names
    assert "mindspore.nn.NotAMindSporeName" not in names
    assert not any("SkippedNameForCensus" in name for name in names)


def test_provided_flags(result):  # pylint: disable=redefined-outer-name
    rows = _rows(result)
    for name in ("mindspore", "mindspore.nn", "mindspore.nn.Dense", "mindspore.nn.Cell",
                 "mindspore.ops.operations.ReduceMean", "mindspore.common.dtype.float32",
                 "mindspore.train.callback.LossMonitor", "mindspore.ops.composite.GradOperation",
                 "mindspore.dataset.transforms.TypeCast",
                 "mindspore.dataset.vision.c_transforms.RandomCrop"):
        assert rows[name]["provided"] is True, name
    assert rows["mindspore.nn.NoSuchLayerForCensus"]["provided"] is False


def test_summary_and_unparsed(result):  # pylint: disable=redefined-outer-name
    summary = result["summary"]
    assert summary["model_folders"] == 2
    assert summary["files_scanned"] == 4  # train.py, model.py, data.py and the unparsable bad.py
    assert result["unparsed"] == ["research/nlp/NetB/bad.py"]
    assert summary["names_missing"] == 1
    assert summary["model_folders_using_mindspore"] == 2
    assert summary["model_folders_all_provided"] == 0  # both use nn.NoSuchLayerForCensus
    assert summary["names"] == len(result["names"])


def test_scan_source_follows_rebinding_in_source_order():
    source = textwrap.dedent("""
        import mindspore.dataset.vision.c_transforms as C
        C.Decode()
        from mindspore.ops import composite as C
        C.GradOperation()
        def f():
            from mindspore.ops import functional as C
            return C.cast
        C.HyperMap
    """)
    assert zoo_census.scan_source(source) == {
        "mindspore.dataset.vision.c_transforms", "mindspore.dataset.vision.c_transforms.Decode",
        "mindspore.ops", "mindspore.ops.composite", "mindspore.ops.composite.GradOperation",
        "mindspore.ops.functional", "mindspore.ops.functional.cast",
        "mindspore.ops.composite.HyperMap"}


def test_command_line_outputs(zoo, result, tmp_path, monkeypatch):  # pylint: disable=redefined-outer-name
    monkeypatch.setattr(zoo_census, "census", lambda zoo_dir, python=None: result)
    out_json, out_md, out_tsv = tmp_path / "c.json", tmp_path / "c.md", tmp_path / "m.tsv"
    assert zoo_census.main([str(zoo), "--json", str(out_json), "--markdown", str(out_md),
                            "--missing-tsv", str(out_tsv), "--min-folders", "2"]) == 0
    data = json.loads(out_json.read_text())
    assert {row["name"] for row in data["names"]} >= {"mindspore.nn.Dense", "mindspore.nn.Cell"}
    table = out_md.read_text().splitlines()
    assert table[0] == "| name | folders | status | MindSpore platforms | example |"
    assert "| `mindspore.nn.Dense` | 2 | provided |  | `official/cv/NetA/train.py` |" in table
    assert all("ReduceMean" not in line for line in table)  # used by one folder only
    assert out_tsv.read_text() == "mindspore.nn.NoSuchLayerForCensus\t2\tofficial/cv/NetA/train.py\n"


def test_bad_zoo_dir(tmp_path, capsys):
    assert zoo_census.main([str(tmp_path / "absent")]) == 2
    assert "'ZOO_DIR'" in capsys.readouterr().err


def test_doc_block_is_replaced_between_markers(zoo, result, tmp_path, monkeypatch):  # pylint: disable=redefined-outer-name
    monkeypatch.setattr(zoo_census, "census", lambda zoo_dir, python=None: result)
    doc = tmp_path / "zoo.md"
    doc.write_text(f"# Title\n\n{zoo_census.DOC_BEGIN}\nold text\n{zoo_census.DOC_END}\n\n## After\n")
    assert zoo_census.main([str(zoo), "--doc", str(doc), "--min-folders", "2", "--zoo-commit", "abc123",
                            "--date", "2026-11-26"]) == 0
    text = doc.read_text()
    assert text.startswith(f"# Title\n\n{zoo_census.DOC_BEGIN}\nCensus of 2026-11-26, zoo commit `abc123`.")
    assert text.endswith(f"{zoo_census.DOC_END}\n\n## After\n")
    assert "old text" not in text
    assert "- missing names used by 2 or more folders: `mindspore.nn.NoSuchLayerForCensus` (2)" in text
    assert "| `mindspore.nn.Dense` | 2 | provided |  | `official/cv/NetA/train.py` |" in text
    assert "ReduceMean" not in text
    doc.write_text("no markers\n")
    assert zoo_census.main([str(zoo), "--doc", str(doc)]) == 2
    assert doc.read_text() == "no markers\n"


def test_doc_block_lists_ascend_only_and_old_names():
    def row(name, folders, provided, platforms, in_mindspore):
        return {"name": name, "folders": folders, "provided": provided, "platforms": platforms,
                "in_mindspore": in_mindspore, "private": False, "example": "official/cv/A/x.py",
                "folder_list": []}
    result = {"summary": {"model_folders": 3, "model_folders_using_mindspore": 3,
                          "model_folders_all_provided": 0, "files_scanned": 5,
                          "files_unparsed": 0, "names": 3, "names_provided": 1, "names_missing": 2,
                          "mindspore_version": "2.10.0"},
              "names": [row("mindspore.ops.operations.NPUGetFloatStatus", 3, True, ["Ascend"], True),
                        row("mindspore.ops.Old", 3, False, None, False),
                        row("mindspore.ops.Add", 3, True, ["Ascend", "GPU", "CPU"], True)]}
    block = zoo_census.format_doc_block(result, 3, "2026-11-26", "c0ffee")
    ascend = block.split("### Ascend-only")[1].split("###")[0]
    assert "| `mindspore.ops.operations.NPUGetFloatStatus` | 3 | provided |" in ascend
    assert "Add" not in ascend
    assert "| `mindspore.ops.Old` | 3 | **missing** (not in MindSpore 2.10.0 either) |  |" in block
    assert "- names used by 3 or more folders: 3; missing: 1 (1 of them not in MindSpore 2.10.0 either)" in block
    assert "| `mindspore.ops.Add` | 3 | provided | Ascend, GPU, CPU |" in block
