"""Old import path of :mod:`tfspore._internal.amp_scope` (mixed-precision scopes); import from there."""
from tfspore._internal.amp_scope import (INHERIT, AmpCell, AmpScope, cast_floats, current,  # noqa: F401
                                         run_primitive, swap)
