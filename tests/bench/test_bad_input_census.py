"""The bad-input census classifies outcomes as documented and runs cases in a guarded worker."""
from bench import bad_input_census as census


def _case(expect="ValueError", needles="Model.train|epoch|0~int"):
    return census._c("x", expect, needles, "pass")


def test_classification():
    raised = {"status": "raised", "type": "ValueError", "module": "builtins",
              "message": "For 'Model.train', the 'epoch' must be a positive int, but got 0."}
    assert census._classify(_case(), raised) == "clear"
    assert census._classify(_case(expect="TypeError"), raised) == "wrong-type"
    assert census._classify(_case(needles="Model.train|initial_epoch"), raised) == "unnamed"
    tf_error = dict(raised, type="InvalidArgumentError", module="tensorflow.python.framework.errors_impl")
    assert census._classify(_case(), tf_error) == "raw-tf"
    assert census._classify(_case(), dict(raised, message="{{function_node x}} Incompatible shapes")) == "raw-tf"
    for status in ("silent", "crash", "hang"):
        assert census._classify(_case(), {"status": status}) == status


def test_cases_are_unique_and_many():
    ids = [c.cid for c in census.CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 75


def test_run_cases_in_a_worker():
    cases = [c for c in census.CASES if c.cid in ("lossmonitor_neg", "tensor_add_pynative")]
    results = census.run_cases(cases, timeout=120)
    assert {cid: census._classify(c, results[cid]) for c in cases for cid in [c.cid]} == {
        "lossmonitor_neg": "clear", "tensor_add_pynative": "clear"}
