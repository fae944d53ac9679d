"""tfspore.profiler against MindSpore 2.10: the same Profiler arguments, defaults and enum values."""
import pytest

from tfspore.profiler import _profiler

ms_params = pytest.importorskip("mindspore.profiler.common.profiler_parameters")
ms_profiler = pytest.importorskip("mindspore.profiler")


def _plain(value):
    if isinstance(value, list):
        return sorted(_plain(v) for v in value)
    return getattr(value, "value", value)


def test_profiler_arguments_and_defaults_match_mindspore():
    theirs = {k: (t, d) for k, (t, d) in ms_params.ProfilerParameters.PARAMS.items()
              if k not in ("schedule", "on_trace_ready")}
    assert set(_profiler._PARAMS) == set(theirs)
    for key, (typ, default) in _profiler._PARAMS.items():
        assert _plain(default) == _plain(theirs[key][1]), key
        assert (typ.__name__ if isinstance(typ, type) else typ) == \
            (theirs[key][0].__name__ if isinstance(theirs[key][0], type) else theirs[key][0]), key


@pytest.mark.parametrize("name", ["ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType"])
def test_enums_match_mindspore(name):
    ours, theirs = getattr(_profiler, name), getattr(ms_profiler, name)
    assert {m.name: m.value for m in ours} == {m.name: m.value for m in theirs}
