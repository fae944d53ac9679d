"""``tfspore.parallel``: parallel-mode helpers used by MindSpore training wrappers."""
from tfspore.parallel.algo_parameter_config import (get_algo_parameters, reset_algo_parameters,  # noqa: E402
                                                    set_algo_parameters)

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]

# Keep last: missing MindSpore names on the modules imported above raise a clear error.
from tfspore._missing import install_missing_name_hooks as _install_missing_name_hooks  # noqa: E402
_install_missing_name_hooks(__name__)
