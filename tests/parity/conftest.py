"""Parity tests compare tfspore with real MindSpore 2.10 (installed by the `parity` extra).

Every test collected under this folder carries the ``parity`` marker (registered in pyproject.toml), so
``pytest -m "not parity"`` runs the unit tier alone and ``pytest -m parity`` the parity tier alone.
"""
import pathlib

import pytest

_HERE = pathlib.Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Marks this folder's tests ``parity`` before ``-m`` selects (the hook sees the whole session's items)."""
    for item in items:
        if _HERE in pathlib.Path(item.path).parents:
            item.add_marker(pytest.mark.parity)


ms_real = pytest.importorskip("mindspore", reason="parity tests need mindspore==2.10.0 (pip install -e '.[parity]')")


@pytest.fixture(autouse=True)
def _ms_pynative():
    # mindspore.export sets jit_syntax_level to STRICT and restores it only when it succeeds: a test
    # of a refused export would leave real MindSpore's context changed for the next test.
    syntax = ms_real.get_context("jit_syntax_level")
    ms_real.set_context(mode=ms_real.PYNATIVE_MODE)
    yield
    ms_real.set_context(mode=ms_real.PYNATIVE_MODE, jit_syntax_level=syntax)
