"""The arguments of :class:`SummaryCollector`: what to collect, checked as MindSpore checks them.

``collect_specified_data`` (with ``keep_default_action``), the ``collect_landscape`` settings,
the frequencies and ``custom_lineage_data`` (merged over the ``MINDINSIGHT_HYPER_CONFIG``
environment variable's) are checked here, with MindSpore's messages and exception types, so that
the collector's module (:mod:`tfspore.train.callback._summary_collector`) reads as what is
recorded when. :class:`SummaryOptions` is a mixin of ``SummaryCollector``.
"""
from __future__ import annotations

import json
import logging
import os
import re
from typing import Any

from tfspore._internal import validator

_logger = logging.getLogger("tfspore")

HYPER_CONFIG_ENV_NAME = "MINDINSIGHT_HYPER_CONFIG"
HYPER_CONFIG_LEN_LIMIT = 100000


class SummaryOptions:
    """The option checks of :class:`~tfspore.train.callback.SummaryCollector` (a mixin)."""

    _DEFAULT_SPECIFIED_DATA = {
        "collect_metric": True,
        "collect_graph": True,
        "collect_train_lineage": True,
        "collect_eval_lineage": True,
        "collect_input_data": True,
        "collect_dataset_graph": True,
        "histogram_regular": None,
        "collect_landscape": {"landscape_size": 40,
                              "unit": "step",
                              "num_samples": 2048,
                              "create_landscape": {"train": True, "result": True},
                              "intervals": [[1, 2, 3, 4, 5, 6, 7, 8, 9],
                                            [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]},
    }

    def _check_positive(self, name: str, value: Any, allow_none: bool = False) -> None:
        if allow_none and value is None:
            return
        validator.check_positive_int(value, name, self.__class__.__name__)

    def _process_specified_data(self, specified_data: Any, action: bool) -> dict:
        validator.check_type(specified_data, [dict, type(None)], "collect_specified_data", "SummaryCollector")
        if specified_data is None:
            return dict(self._DEFAULT_SPECIFIED_DATA) if action else {}
        for param_name in specified_data:
            validator.check_type(param_name, [str], param_name, "SummaryCollector")
        unexpected = set(specified_data) - set(self._DEFAULT_SPECIFIED_DATA)
        if unexpected:
            raise ValueError(f'For "{self.__class__.__name__}", the keys {unexpected} of `collect_specified_data` are '
                             f'unsupported, expect the follow keys: {list(self._DEFAULT_SPECIFIED_DATA.keys())}')
        if "histogram_regular" in specified_data:
            regular = specified_data.get("histogram_regular")
            validator.check_type(regular, (str, type(None)), "histogram_regular", "SummaryCollector")
            if isinstance(regular, str):
                try:
                    re.match(regular, "")
                except re.error as exc:
                    raise ValueError(f"For `collect_specified_data`, the value of `histogram_regular` is not a valid "
                                     f"regular expression. Detail: {exc}. Got {regular!r}.") from exc
        bool_items = set(self._DEFAULT_SPECIFIED_DATA) - {"histogram_regular", "collect_landscape"}
        for item in sorted(bool_items):
            if item in specified_data:
                validator.check_type(specified_data.get(item), bool, item, "SummaryCollector")
        if action:
            result = dict(self._DEFAULT_SPECIFIED_DATA)
            result.update(specified_data)
            return result
        return dict(specified_data)

    def _check_collect_landscape_data(self, collect_landscape: dict) -> None:
        name = self.__class__.__name__
        defaults = self._DEFAULT_SPECIFIED_DATA["collect_landscape"]
        unexpected = set(collect_landscape) - set(defaults)
        if unexpected:
            raise ValueError(f'For "{name}", the keys {unexpected} of `collect_landscape` are unsupported, expect the '
                             f'follow keys: {list(defaults.keys())}')
        size = collect_landscape.get("landscape_size", 40)
        validator.check_type(size, int, "landscape_size", "SummaryCollector")
        if size < 3 or size > 256:
            raise ValueError(f'For "{name}", the "landscape_size" in collect_specified_data should be less than 256 '
                             f'and more than 3, but got the: {size}')
        unit = collect_landscape.get("unit", "step")
        validator.check_type(unit, str, "unit", "SummaryCollector")
        if unit not in ("step", "epoch"):
            raise ValueError(f'For "{name}", unit in collect_specified_data should be step or epoch, but got the: '
                             f'{unit}.')
        validator.check_type(collect_landscape.get("num_samples", 2048), int, "num_samples", "SummaryCollector")
        create = collect_landscape.get("create_landscape", {"train": True, "result": True})
        validator.check_type(create, dict, "create_landscape", "SummaryCollector")
        for param, value in create.items():
            if param not in ("train", "result"):
                raise ValueError(f'For "{name}", the key to create landscape should be in ["train", "result"], but '
                                 f'got the: {param}.')
            validator.check_type(value, bool, param, "SummaryCollector")
        intervals = collect_landscape.get("intervals")
        validator.check_type(intervals, list, "intervals", "SummaryCollector")
        for interval in intervals:
            validator.check_type(interval, list, "each interval in intervals", "SummaryCollector")
            if len(interval) < 3:
                raise ValueError(f'For "{name}", the length of each list in "intervals" should not be less than '
                                 f'three, but got the: {interval}')
            for j in interval:
                if not isinstance(j, int):
                    raise TypeError(f'For "{name}", the value of each list in "intervals" should be int, but got '
                                    f'the: {type(j)}')

    def _process_custom_lineage_data(self, custom_lineage_data: Any) -> dict:
        if custom_lineage_data is None:
            custom_lineage_data = {}
        self._check_custom_lineage_type("custom_lineage_data", custom_lineage_data)
        auto = self._collect_optimizer_custom_lineage_data()
        self._check_custom_lineage_type("auto_custom_lineage_data", auto)
        auto.update(custom_lineage_data)  # the user's values win
        return auto

    @staticmethod
    def _check_custom_lineage_type(param_name: str, custom_lineage: Any) -> None:
        validator.check_type(custom_lineage, [dict, type(None)], param_name, "SummaryCollector")
        for key, value in custom_lineage.items():
            validator.check_type(key, str, f"keys of {param_name}", "SummaryCollector")
            validator.check_type(value, (int, str, float), f"{param_name}[{key!r}]", "SummaryCollector")

    @staticmethod
    def _collect_optimizer_custom_lineage_data() -> dict:
        """The ``custom_lineage_data`` of the ``MINDINSIGHT_HYPER_CONFIG`` environment variable, if set."""
        hyper_config = os.environ.get(HYPER_CONFIG_ENV_NAME)
        if hyper_config is None:
            return {}
        if len(hyper_config) > HYPER_CONFIG_LEN_LIMIT:
            _logger.warning("The 'MINDINSIGHT_HYPER_CONFIG' of environment variable is too long. The length limit is "
                            "%s, the length of hyper_config is %s.", HYPER_CONFIG_LEN_LIMIT, len(hyper_config))
            return {}
        try:
            hyper_config = json.loads(hyper_config)
        except (TypeError, json.JSONDecodeError) as exc:
            _logger.warning("The 'MINDINSIGHT_HYPER_CONFIG' of environment variable decode error. Detail: %s.", exc)
            return {}
        data = hyper_config.get("custom_lineage_data") if isinstance(hyper_config, dict) else None
        return dict(data) if isinstance(data, dict) else {}
