"""Block encryption of ``.ckpt`` and MindIR files: :mod:`tfspore._internal.crypto`, which
:mod:`tfspore.mindrecord` shares (the train side's modules import it under this name)."""
from tfspore._internal.crypto import *  # noqa: F401,F403
from tfspore._internal.crypto import __all__  # noqa: F401
