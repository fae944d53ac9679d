"""``tfspore.log``: MindSpore's Python logger (``mindspore.log``), configured by its environment variables.

The logger is built on first use from these variables, as in MindSpore:

- ``GLOG_v``: the level, ``0`` DEBUG, ``1`` INFO, ``2`` WARNING (default), ``3`` ERROR, ``4`` CRITICAL.
- ``GLOG_logtostderr``: ``1`` (default) logs to stderr; ``0`` logs to a rotating file
  ``<GLOG_log_dir>/rank_<RANK_ID>/logs/mindspore.log.<pid>`` and, from ``GLOG_stderrthreshold``
  (default ``2``) up, to stderr as well.
- ``GLOG_log_dir``: the log folder, required when ``GLOG_logtostderr=0``.
- ``logger_maxBytes`` (default 52428800) and ``logger_backupCount`` (default 30): file rotation.

Lines have MindSpore's format::

    [WARNING] ME(1234:139872,MainProcess):2024-01-02-03:04:05.123.456 [train.py:12] message

Example:
    >>> from tfspore import log as logger
    >>> logger.info("epoch %d done", 1)
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import time
from logging.handlers import RotatingFileHandler
from typing import Any

__all__ = ["get_level", "get_log_config", "info", "debug", "warning", "error", "critical"]

_STD_ON, _STD_OFF = "1", "0"
_MAX_BYTES = "52428800"
_BACKUP_COUNT = "30"
_DEFAULT_LEVEL = "2"
_SUB_MODULE = "ME"
_GLOG_TO_LEVEL = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
                  "4": logging.CRITICAL}
_LEVEL_TO_GLOG = {v: k for k, v in _GLOG_TO_LEVEL.items()}
# logger setting -> environment variable
_ENV = {"level": "GLOG_v", "console": "GLOG_logtostderr", "filepath": "GLOG_log_dir", "maxBytes": "logger_maxBytes",
        "backupCount": "logger_backupCount", "stderr_level": "GLOG_stderrthreshold"}
_FORMAT = ("[%(levelname)s] %(sub_module)s(%(process)d:%(thread)d,%(processName)s):%(asctime)s "
           "[%(filepath)s:%(lineno)d] %(message)s")

_lock = threading.Lock()
_LOGGER: logging.Logger | None = None


class _Formatter(logging.Formatter):
    """MindSpore's line format: time as ``%Y-%m-%d-%H:%M:%S.mmm.uuu``, paths from ``mindspore`` (or ``tfspore``) on."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        created = self.converter(record.created)
        if datefmt:
            return time.strftime(datefmt, created)
        micros = f"{round(record.msecs * 1000)}"
        return f"{time.strftime('%Y-%m-%d-%H:%M:%S', created)}.{micros[:3]}.{micros[3:]}"

    def format(self, record: logging.LogRecord) -> str:
        idx = record.pathname.rfind("mindspore")
        if idx < 0:
            idx = record.pathname.rfind("tfspore")
        record.filepath = record.pathname[idx:] if idx >= 0 else record.pathname
        record.sub_module = _SUB_MODULE
        return super().format(record)


def _env_config() -> dict:
    config = {}
    for key, env in _ENV.items():
        value = os.environ.get(env)
        if value:
            config[key] = value.strip()
    return config


def _check_level(level: str) -> None:
    if level not in _GLOG_TO_LEVEL:
        raise ValueError("Incorrect log level, please check the configuration of GLOG_v or GLOG_stderrthreshold, "
                         "desired log level: 4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, 0-DEBUG. But got "
                         f"{level}.")


def _check_config(config: dict) -> None:
    for key in ("level", "stderr_level"):
        if key in config:
            _check_level(config[key])
    console = config.get("console")
    if console is None:
        return
    if console not in (_STD_OFF, _STD_ON):
        raise ValueError(f"Incorrect value, the value of GLOG_logtostderr must be 0 or 1, but got {console}.")
    if console == _STD_OFF:
        if not config.get("filepath"):
            raise ValueError("When GLOG_logtostderr is set to 0, the directory of saving log GLOG_log_dir must be "
                             "set, but got it empty.")
        for key, word in (("maxBytes", "."), ("backupCount", "")):
            value = config.get(key)
            if value is not None and not value.isdigit():
                raise ValueError(f"Incorrect value, the value of {_ENV[key]} must be positive integer. But got "
                                 f"{_ENV[key]}:{value}{word}")


def _rank_id() -> str:
    return os.getenv("RANK_ID") or os.getenv("OMPI_COMM_WORLD_RANK") or os.getenv("MS_NODE_ID") or "0"


def _find_caller(stack_info: bool = False, stacklevel: int = 1) -> tuple:
    """The first frame outside this file: the line that called ``info``/``warning``/..."""
    frame = sys._getframe(1)  # pylint: disable=protected-access
    here = os.path.normcase(__file__)
    logging_file = os.path.normcase(logging.__file__)
    while frame is not None:
        name = os.path.normcase(frame.f_code.co_filename)
        if name not in (here, logging_file):
            return frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name, None
        frame = frame.f_back
    return "(unknown file)", 0, "(unknown function)", None


def _setup(config: dict) -> logging.Logger:
    logger = logging.getLogger(f"{_SUB_MODULE}.mindspore.log.{os.getpid()}")
    logger.findCaller = _find_caller
    logger.setLevel(_GLOG_TO_LEVEL[config.get("level", _DEFAULT_LEVEL)])
    logger.propagate = False
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    formatter = _Formatter(_FORMAT)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.name = "StreamHandler"
    stderr.setFormatter(formatter)
    if config.get("console", _STD_ON) == _STD_OFF:
        log_dir = os.path.join(os.path.realpath(config["filepath"]), f"rank_{_rank_id()}", "logs")
        os.makedirs(log_dir, mode=0o700, exist_ok=True)
        file_handler = RotatingFileHandler(os.path.join(log_dir, f"mindspore.log.{os.getpid()}"),
                                           maxBytes=int(config.get("maxBytes", _MAX_BYTES)),
                                           backupCount=int(config.get("backupCount", _BACKUP_COUNT)),
                                           encoding="utf8")
        file_handler.name = "FileHandler"
        file_handler.setFormatter(formatter)
        logger.addHandler(file_handler)
        stderr.setLevel(_GLOG_TO_LEVEL[config.get("stderr_level", _DEFAULT_LEVEL)])
    logger.addHandler(stderr)
    return logger


def _get_logger() -> logging.Logger:
    """The MindSpore logger, built from the environment on first use."""
    global _LOGGER  # pylint: disable=global-statement
    with _lock:
        if _LOGGER is None:
            config = _env_config()
            _check_config(config)
            _LOGGER = _setup(config)
        return _LOGGER


def _reset() -> None:
    """Forget the logger so that the next call reads the environment again (for tests)."""
    global _LOGGER  # pylint: disable=global-statement
    with _lock:
        if _LOGGER is not None:
            for handler in list(_LOGGER.handlers):
                _LOGGER.removeHandler(handler)
                handler.close()
        _LOGGER = None


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at INFO.

    Example:
        >>> info("The arg(%s) is: %r", "lr", 0.1)
    """
    _get_logger().info(msg, *args, **kwargs)


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at DEBUG."""
    _get_logger().debug(msg, *args, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at WARNING."""
    _get_logger().warning(msg, *args, **kwargs)


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at ERROR."""
    _get_logger().error(msg, *args, **kwargs)


def critical(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` at CRITICAL."""
    _get_logger().critical(msg, *args, **kwargs)


def get_level() -> str:
    """Return the logger level as a ``GLOG_v`` string.

    Returns:
        str: '0' (DEBUG), '1' (INFO), '2' (WARNING), '3' (ERROR) or '4' (CRITICAL).

    Raises:
        ValueError: when ``GLOG_v`` holds another value.

    Example:
        >>> get_level()
        '2'
    """
    return _LEVEL_TO_GLOG.get(_get_logger().getEffectiveLevel())


def get_log_config() -> dict:
    """Return the logger settings, keyed by their environment variables.

    Returns:
        dict: ``{'GLOG_v': ..., 'GLOG_logtostderr': ...}``, plus ``GLOG_log_dir``, ``logger_maxBytes``,
        ``logger_backupCount`` and ``GLOG_stderrthreshold`` when logging to a file.

    Example:
        >>> get_log_config()
        {'GLOG_v': '2', 'GLOG_logtostderr': '1'}
    """
    logger = _get_logger()
    handler = logger.handlers[0]
    config: dict = {"GLOG_v": get_level(), "GLOG_logtostderr": _STD_ON}
    if handler.name == "FileHandler":
        config["GLOG_logtostderr"] = _STD_OFF
        config["GLOG_log_dir"] = os.path.split(handler.baseFilename)[0]
        config["logger_maxBytes"] = handler.maxBytes
        config["logger_backupCount"] = handler.backupCount
        config["GLOG_stderrthreshold"] = _LEVEL_TO_GLOG.get(logger.handlers[1].level)
    return config
