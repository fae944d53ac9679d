"""tfspore: MindSpore's training API on TensorFlow 2 and Keras 3.

Use it as ``import tfspore as mindspore``, or run a MindSpore script unchanged with
``python -m tfspore run script.py``.
"""
__version__ = "0.1.0"

from tfspore.common import dtype  # noqa: E402
from tfspore.common.dtype import *  # noqa: E402,F401,F403
from tfspore.common.dtype import dtype_to_nptype, pytype_to_dtype, get_py_obj_dtype, dtype_to_pytype  # noqa: E402
from tfspore.common.tensor import Tensor, tensor, is_tensor  # noqa: E402
from tfspore.common.parameter import Parameter, ParameterTuple  # noqa: E402
from tfspore.common.seed import set_seed, get_seed  # noqa: E402
from tfspore.common.api import jit, JitConfig, lazy_inline, ms_function, mutable, no_inline  # noqa: E402
from tfspore.common import initializer  # noqa: E402,F401
from tfspore import context  # noqa: E402
from tfspore.context import (GRAPH_MODE, PYNATIVE_MODE, ParallelMode, set_context, get_context,  # noqa: E402
                             set_auto_parallel_context, get_auto_parallel_context, reset_auto_parallel_context,
                             set_ps_context, get_ps_context, reset_ps_context, get_jit_config)
from tfspore import common, nn, ops  # noqa: E402
from tfspore import numpy  # noqa: E402,F401  (mindspore.numpy, as ``import mindspore`` exposes it)
from tfspore import experimental  # noqa: E402,F401
from tfspore import onnx  # noqa: E402,F401  (mindspore.onnx.export, as ``import mindspore`` exposes it)
from tfspore.ops.composite import grad, value_and_grad, vjp, jvp  # noqa: E402
from tfspore.compat import alias_mindspore, unalias_mindspore  # noqa: E402
from tfspore.train.serialization import save_checkpoint, load_checkpoint, load_param_into_net  # noqa: E402,F401
from tfspore.train.model import Model  # noqa: E402,F401
from tfspore import amp  # noqa: E402,F401
from tfspore.train.loss_scale_manager import (LossScaleManager, FixedLossScaleManager,  # noqa: E402,F401
                                              DynamicLossScaleManager)
from tfspore.train.dataset_helper import DatasetHelper, connect_network_with_dataset  # noqa: E402,F401
from tfspore.train.callback import (Callback, LossMonitor, TimeMonitor, ModelCheckpoint, CheckpointConfig,  # noqa: E402,F401
                                    RunContext, LearningRateScheduler, History, LambdaCallback, ReduceLROnPlateau,
                                    EarlyStopping, OnRequestExit, BackupAndRestore, SummaryCollector,
                                    SummaryLandscape)
from tfspore.train.summary import SummaryRecord  # noqa: E402,F401
from tfspore import log  # noqa: E402,F401
from tfspore.log import get_level, get_log_config  # noqa: E402,F401
from tfspore import profiler  # noqa: E402,F401
from tfspore.profiler import Profiler  # noqa: E402,F401
from tfspore.train.serialization import export, load  # noqa: E402,F401
from tfspore.common import RowTensor  # noqa: E402,F401
from tfspore.context import STRICT, COMPATIBLE, LAX  # noqa: E402,F401

from tfspore import parallel  # noqa: E402,F401
from tfspore.parallel import set_algo_parameters, get_algo_parameters, reset_algo_parameters  # noqa: E402,F401

# Keep last: missing MindSpore names on the modules imported above raise a clear error.
from tfspore._missing import install_missing_name_hooks as _install_missing_name_hooks  # noqa: E402
_install_missing_name_hooks(__name__)
