"""tfspore.log against MindSpore 2.10's mindspore.log: the same line for the same record, the same settings errors."""
import logging

import pytest

from tfspore import log

ms_log = pytest.importorskip("mindspore.log")


def _record(pathname, level=logging.WARNING, msecs=123.0):
    record = logging.LogRecord("x", level, pathname, 42, "value %s", ("v",), None)
    record.created = 1700000000 + msecs / 1000
    record.msecs = msecs
    return record


@pytest.mark.parametrize("pathname", ["/home/u/models/train.py", "/site-packages/mindspore/train/model.py"])
@pytest.mark.parametrize("msecs", [123.0, 5.0, 0.0])
@pytest.mark.parametrize("level", [logging.INFO, logging.WARNING, logging.ERROR])
def test_line_format_matches_mindspore(pathname, msecs, level):
    ms_formatter = ms_log._DataFormatter("ME", ms_log._get_formatter())
    ours = log._Formatter(log._FORMAT)
    assert ours.format(_record(pathname, level, msecs)) == ms_formatter.format(_record(pathname, level, msecs))


@pytest.mark.parametrize("config", [
    {"level": "5"}, {"level": "1"}, {"stderr_level": "9"}, {"console": "2"}, {"console": "0"},
    {"console": "0", "filepath": "/tmp", "maxBytes": "x"}, {"console": "0", "filepath": "/tmp", "backupCount": "-1"},
    {"console": "0", "filepath": "/tmp", "maxBytes": "10", "backupCount": "3"},
])
def test_settings_checks_match_mindspore(config):
    def outcome(check):
        try:
            check(dict(config))
        except ValueError as exc:
            return str(exc)
        return "ok"
    assert outcome(log._check_config) == outcome(ms_log._verify_config)


def test_level_table_matches_mindspore():
    assert {k: logging.getLevelName(v) for k, v in log._GLOG_TO_LEVEL.items()} == ms_log._gloglevel_to_name
    assert log._MAX_BYTES == ms_log.MAX_BYTES and log._BACKUP_COUNT == ms_log.BACKUP_COUNT
