"""tfspore.log: MindSpore's logger, its GLOG_* settings and its line format."""
import inspect
import logging
import os
import re

import pytest

from tfspore import log

LINE = re.compile(r"^\[(DEBUG|INFO|WARNING|ERROR|CRITICAL)\] ME\(\d+:\d+,MainProcess\):"
                  r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d+\.\d* \[(.+):(\d+)\] (.*)$")
ENV = ("GLOG_v", "GLOG_logtostderr", "GLOG_log_dir", "logger_maxBytes", "logger_backupCount", "GLOG_stderrthreshold")


@pytest.fixture(autouse=True)
def _fresh_logger(monkeypatch):
    for key in ENV:
        monkeypatch.delenv(key, raising=False)
    log._reset()
    yield
    log._reset()


def test_default_level_is_warning_and_lines_have_mindspore_format(capsys):
    log.info("not shown")
    log.debug("not shown")
    log.warning("lr is %s", 0.1)
    log.error("bad %d", 3)
    expected_line = inspect.currentframe().f_lineno - 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    first, second = (LINE.match(x) for x in err)
    assert first and second
    assert first.group(1) == "WARNING" and first.group(4) == "lr is 0.1"
    assert second.group(1) == "ERROR" and second.group(4) == "bad 3"
    assert second.group(2) == __file__ and int(second.group(3)) == expected_line
    assert log.get_level() == "2"
    assert log.get_log_config() == {"GLOG_v": "2", "GLOG_logtostderr": "1"}


@pytest.mark.parametrize("glog_v,shown", [("0", 5), ("1", 4), ("3", 2), ("4", 1)])
def test_glog_v_sets_the_level(monkeypatch, capsys, glog_v, shown):
    monkeypatch.setenv("GLOG_v", glog_v)
    for fn in (log.debug, log.info, log.warning, log.error, log.critical):
        fn("message")
    assert len(capsys.readouterr().err.strip().splitlines()) == shown
    assert log.get_level() == glog_v


def test_log_to_file_with_rotation_settings(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GLOG_v", "1")
    monkeypatch.setenv("GLOG_logtostderr", "0")
    monkeypatch.setenv("GLOG_log_dir", str(tmp_path))
    monkeypatch.setenv("logger_maxBytes", "1000")
    monkeypatch.setenv("logger_backupCount", "2")
    monkeypatch.setenv("RANK_ID", "3")
    log.info("to the file")
    log.error("to both")
    path = tmp_path / "rank_3" / "logs" / f"mindspore.log.{os.getpid()}"
    lines = path.read_text().splitlines()
    assert [LINE.match(x).group(4) for x in lines] == ["to the file", "to both"]
    assert [LINE.match(x).group(4) for x in capsys.readouterr().err.strip().splitlines()] == ["to both"]
    assert log.get_log_config() == {"GLOG_v": "1", "GLOG_logtostderr": "0", "GLOG_log_dir": str(path.parent),
                                    "logger_maxBytes": 1000, "logger_backupCount": 2, "GLOG_stderrthreshold": "2"}
    for i in range(40):
        log.info("rotate %d", i)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + ".1", path.name + ".2"]


@pytest.mark.parametrize("env,match", [
    ({"GLOG_v": "5"}, "desired log level: 4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, 0-DEBUG. But got 5"),
    ({"GLOG_stderrthreshold": "x"}, "But got x"),
    ({"GLOG_logtostderr": "2"}, "GLOG_logtostderr must be 0 or 1, but got 2"),
    ({"GLOG_logtostderr": "0"}, "GLOG_log_dir must be set"),
    ({"GLOG_logtostderr": "0", "GLOG_log_dir": "/tmp", "logger_maxBytes": "-1"}, "logger_maxBytes must be positive"),
])
def test_bad_settings_raise(monkeypatch, env, match):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ValueError, match=match):
        log.info("x")


def test_mindspore_paths_import_it():
    import tfspore
    tfspore.alias_mindspore()
    try:
        from mindspore import log as logger
        import mindspore.log
        from mindspore.log import logging as std_logging
    finally:
        tfspore.unalias_mindspore()
    assert logger is log and mindspore.log is log and std_logging is logging
    assert tfspore.get_level is log.get_level and tfspore.get_log_config is log.get_log_config
