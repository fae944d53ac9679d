"""``tfspore.train``: training utilities, including MindSpore ``.ckpt`` checkpoint I/O.

Example:
    >>> from tfspore.train import save_checkpoint, load_checkpoint, load_param_into_net
"""
from tfspore.train.serialization import (save_checkpoint, load_checkpoint, load_checkpoint_async,
                                         load_param_into_net, async_ckpt_thread_status)

__all__ = ["save_checkpoint", "load_checkpoint", "load_checkpoint_async", "load_param_into_net",
           "async_ckpt_thread_status"]

from tfspore.train import metrics  # noqa: E402
from tfspore.train.metrics import *  # noqa: E402,F401,F403
from tfspore.train.metrics import __all__ as _metrics_all  # noqa: E402

__all__ += list(_metrics_all)

from tfspore.train import callback  # noqa: E402
from tfspore.train.callback import *  # noqa: E402,F401,F403
from tfspore.train.callback import __all__ as _callback_all  # noqa: E402
from tfspore.train import dataset_helper, model  # noqa: E402
from tfspore.train.dataset_helper import DatasetHelper, connect_network_with_dataset  # noqa: E402
from tfspore.train.model import Model  # noqa: E402

__all__ += list(_callback_all) + ["Model", "DatasetHelper", "connect_network_with_dataset"]
from tfspore.train import loss_scale_manager  # noqa: E402
from tfspore.train.loss_scale_manager import (LossScaleManager, FixedLossScaleManager,  # noqa: E402
                                              DynamicLossScaleManager)

__all__ += ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
from tfspore.train import amp  # noqa: E402
from tfspore.train.amp import build_train_network  # noqa: E402

__all__ += ["build_train_network"]
from tfspore.train import summary, lineage_pb2, summary_pb2, anf_ir_pb2  # noqa: E402,F401
from tfspore.train.summary import SummaryRecord  # noqa: E402

__all__ += ["SummaryRecord"]
from tfspore.train import train_thor  # noqa: E402
from tfspore.train.train_thor import ConvertModelUtils, ConvertNetUtils  # noqa: E402

__all__ += ["ConvertModelUtils", "ConvertNetUtils"]
