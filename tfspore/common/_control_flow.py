"""Old import path of :mod:`tfspore._internal.control_flow` (Python control flow on Tensors in compiled
user code); import from there."""
from tfspore._internal.control_flow import call, is_user_code, raise_assertion  # noqa: F401
