"""Importing tfspore leaves TensorFlow's process-wide state as the user set it.

A TensorFlow user imports tfspore into their own program: the import must not change logging
levels or handlers, device placement, threading, JIT, eager/numpy behaviour, Keras's global
settings, random seeds or the environment. The one change allowed is AutoGraph's rule that
excludes tfspore's own modules from conversion.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]

_PROBE = r'''
import json, logging, os, random, sys, warnings
import numpy as np
import tensorflow as tf
import keras
from absl import logging as absl_logging
from tensorflow.python.autograph.core import config as ag_config
from tensorflow.python.eager import context


def state():
    return {
        "env": {k: v for k, v in os.environ.items()},
        "loggers": {name: logging.getLogger(name).level for name in ("", "tensorflow", "absl", "keras", "h5py")},
        "root_handlers": len(logging.getLogger().handlers),
        "tf_logger_handlers": len(tf.get_logger().handlers),
        "absl_verbosity": absl_logging.get_verbosity(),
        "warning_filters": len(warnings.filters),
        "soft_placement": tf.config.get_soft_device_placement(),
        "device_policy": str(context.context().device_policy),
        "logical_devices": [d.name for d in tf.config.list_logical_devices()],
        "visible_devices": [d.name for d in tf.config.get_visible_devices()],
        "threads": [tf.config.threading.get_intra_op_parallelism_threads(),
                    tf.config.threading.get_inter_op_parallelism_threads()],
        "jit": str(tf.config.optimizer.get_jit()),
        "grappler": sorted(tf.config.optimizer.get_experimental_options().items()),
        "functions_eagerly": tf.config.functions_run_eagerly(),
        "numpy_behavior": hasattr(tf.Tensor, "reshape"),
        "tensor_float_32": tf.config.experimental.tensor_float_32_execution_enabled(),
        "global_seed": context.global_seed(),
        "np_random": int(np.random.get_state()[1].sum() % 1000003),
        "py_random": random.random(),
        "keras": [keras.config.floatx(), keras.config.image_data_format(), keras.config.epsilon(),
                  str(keras.config.dtype_policy().name), keras.config.backend()],
        "autograph_rules": [str(getattr(r, "_prefix", r)) for r in ag_config.CONVERSION_RULES],
    }


random.seed(7)
np.random.seed(7)
before = state()
random.seed(7)
np.random.seed(7)
import tfspore  # noqa: F401
import tfspore.nn, tfspore.train, tfspore.dataset  # noqa: F401,E401
after = state()
print(json.dumps({"before": before, "after": after}))
'''


def test_import_tfspore_changes_no_tensorflow_global_state():
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    env["PYTHONPATH"] = str(REPO_ROOT)
    proc = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=300,
                          cwd=REPO_ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    before, after = result["before"], result["after"]
    rules_before, rules_after = before.pop("autograph_rules"), after.pop("autograph_rules")
    assert rules_after[1:] == rules_before and rules_after[0] == "tfspore"  # tfspore's own code only
    changed = {key: (before[key], after[key]) for key in before if before[key] != after[key]}
    assert changed == {}
