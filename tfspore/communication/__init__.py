"""``tfspore.communication``: MindSpore's collective-communication entry points on ``tf.distribute``."""
from tfspore.communication import management
from tfspore.communication.management import *  # noqa: F401,F403
from tfspore.communication.management import __all__ as _all

__all__ = list(_all) + ["management"]
