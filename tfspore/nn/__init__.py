"""``tfspore.nn``: Cells, layers, losses, optimizers and training wrappers."""
from tfspore.nn.cell import Cell, GraphCell
from tfspore.common.parameter import Buffer
from tfspore.nn.layer import *  # noqa: F401,F403
from tfspore.nn.layer import __all__ as _layer_all
from tfspore.nn.loss import *  # noqa: F401,F403
from tfspore.nn.loss import __all__ as _loss_all
from tfspore.nn.optim import *  # noqa: F401,F403
from tfspore.nn.optim import __all__ as _optim_all
from tfspore.nn import dynamic_lr, learning_rate_schedule  # noqa: E402
from tfspore.nn.learning_rate_schedule import *  # noqa: F401,F403
from tfspore.nn.learning_rate_schedule import LearningRateSchedule  # noqa: F401
from tfspore.nn.dynamic_lr import *  # noqa: F401,F403
from tfspore.nn.wrap import *  # noqa: F401,F403
from tfspore.nn.wrap import __all__ as _wrap_all
from tfspore.nn import metrics  # noqa: E402
from tfspore.nn import probability  # noqa: E402,F401
from tfspore.nn import utils  # noqa: E402,F401
from tfspore.nn import grad  # noqa: E402,F401
from tfspore.nn.grad import Jvp, Vjp  # noqa: E402,F401
from tfspore.nn.utils import no_init_parameters  # noqa: E402,F401
from tfspore.nn.metrics import *  # noqa: F401,F403
from tfspore.nn.metrics import __all__ as _metrics_all

__all__ = ["Cell", "GraphCell", "Buffer"] + list(_layer_all) + list(_loss_all) + list(_optim_all) + list(_wrap_all)
__all__ += list(_metrics_all)
__all__ += list(learning_rate_schedule.__all__) + list(dynamic_lr.__all__)
__all__ += ["no_init_parameters", "Jvp", "Vjp"]
