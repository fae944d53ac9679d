"""Fixtures of the summary tests: a log directory and TensorBoard's own readers."""
import os

import pytest
from tensorboard.backend.event_processing import event_accumulator, event_file_loader

from tfspore.train.summary import SummaryRecord


@pytest.fixture(autouse=True)
def _no_open_record():
    """Every test closes its SummaryRecord (only one may be open per process)."""
    assert SummaryRecord.count == 0
    yield
    assert SummaryRecord.count == 0, "a test left a SummaryRecord open"


@pytest.fixture
def summary_dir(tmp_path):
    return str(tmp_path / "summary_dir")


def _event_files(directory):
    return sorted(os.path.join(directory, f) for f in os.listdir(directory) if "tfevents" in f)


@pytest.fixture
def events():
    """``events(path)``: the Event protos of one event file, or of all event files of a directory in name
    order, read with TensorBoard's ``LegacyEventFileLoader`` (the values as written)."""
    def load(path):
        files = _event_files(path) if os.path.isdir(path) else [path]
        return [e for f in files for e in event_file_loader.LegacyEventFileLoader(f).Load()]
    return load


@pytest.fixture
def accumulator():
    """``accumulator(directory)``: a loaded TensorBoard ``EventAccumulator`` keeping every value."""
    def load(directory):
        acc = event_accumulator.EventAccumulator(directory, size_guidance={
            event_accumulator.SCALARS: 0, event_accumulator.IMAGES: 0, event_accumulator.TENSORS: 0,
            event_accumulator.HISTOGRAMS: 0, event_accumulator.GRAPH: 0})
        return acc.Reload()
    return load
