"""Parity tests compare tfspore with real MindSpore 2.10 (installed by the `parity` extra)."""
import pytest

ms_real = pytest.importorskip("mindspore", reason="parity tests need mindspore==2.10.0 (pip install -e '.[parity]')")


@pytest.fixture(autouse=True)
def _ms_pynative():
    # mindspore.export sets jit_syntax_level to STRICT and restores it only when it succeeds: a test
    # of a refused export would leave real MindSpore's context changed for the next test.
    syntax = ms_real.get_context("jit_syntax_level")
    ms_real.set_context(mode=ms_real.PYNATIVE_MODE)
    yield
    ms_real.set_context(mode=ms_real.PYNATIVE_MODE, jit_syntax_level=syntax)
