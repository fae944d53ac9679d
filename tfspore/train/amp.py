"""Automatic mixed precision: ``build_train_network``, ``auto_mixed_precision``, ``custom_mixed_precision``.

The levels are MindSpore's (``mindspore.train.amp``):

- ``O0``: nothing changes.
- ``O1``: the white-list cells (Conv, Dense, RNN cells) and the white-list primitives (``MatMul``,
  ``Conv2D``, ``BatchMatMul``, ``PReLU``, ``ReLU``, ...) compute in float16: their floating inputs
  (parameters included) are cast down and their outputs cast back to float32; everything else stays
  float32. MindSpore rewrites the network's source to insert these casts; tfspore marks the cells
  instead, and the white-list primitives read the mark while the construct runs (while it is traced,
  in GRAPH_MODE), so a compiled step carries only the casts.
- ``O2``: the whole network computes in float16 (:meth:`Cell.to_float`) except the black-list cells
  (BatchNorm1d/2d/3d, LayerNorm), which compute in float32 and return float16; ``build_train_network``
  adds dynamic loss scaling.
- ``O3``: the whole network computes in float16, no loss scaling.
- ``auto``: chosen per device as MindSpore documents it: on GPU the ``O2`` setup, on TPU the ``O3``
  setup in bfloat16 (TPUs compute in bfloat16, whose range needs no loss scaling), and on CPU
  MindSpore 2.10's operator-level strategy (the ``auto`` white-list operators in float16 with
  float16 outputs, the black-list operators in float32, the promote-list operators in their widest
  input type, the rest in their input types).

Parameters always stay float32 (master weights): the casts happen inside the construct, so the
gradients flow back to the float32 variables, and checkpoints stay float32.

Example:
    >>> from tfspore import amp, nn
    >>> net = nn.Dense(3, 2)
    >>> opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    >>> train_net = amp.build_train_network(net, opt, nn.MSELoss(), level="O3")
"""
from __future__ import annotations

import inspect
import logging
from typing import Any, Callable

import tensorflow as tf

from tfspore import context as _context
from tfspore import nn
from tfspore._internal import amp_scope as _amp_scope
from tfspore._internal import state as _state
from tfspore.common import dtype as mstype
from tfspore.nn.cell import Cell
from tfspore.ops.primitive import Primitive
from tfspore.train.loss_scale_manager import DynamicLossScaleManager, LossScaleManager
from tfspore.train._amp_lists import (_present, AMP_WHITE_LIST, AMP_BLACK_LIST, AMP_AUTO_WHITE_LIST,  # noqa: F401
                                      AMP_AUTO_BLACK_LIST, AMP_AUTO_PROMOTE_LIST, _CELL_PRIMITIVE,
                                      _AUTO_WHITE_CELLS, _AUTO_BLACK_CELLS, get_white_list, get_black_list)

__all__ = ["build_train_network", "auto_mixed_precision", "custom_mixed_precision", "get_white_list",
           "get_black_list"]

_logger = logging.getLogger("tfspore")
_LEVELS = ["O0", "O1", "O2", "O3", "auto"]
_BOOST_LEVELS = ["O0", "O1", "O2"]


class _OutputTo16(Cell):
    """Run ``backbone`` and cast its floating outputs to ``dtype`` (float16 by default)."""

    def __init__(self, backbone: Cell, dtype: Any = mstype.float16) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype
        self._get_attr_from_cell(backbone)

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        return _amp_scope.cast_floats(self._backbone(*args, **kwargs), self.dtype.tf_dtype)


class _OutputTo32(Cell):
    """Run ``backbone`` and cast its floating outputs to float32."""

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._get_attr_from_cell(backbone)

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        return _amp_scope.cast_floats(self._backbone(*args, **kwargs), tf.float32)


class WithLossCell(nn.WithLossCell):
    """``loss_fn(float32(backbone(data)), float32(label))``: the loss wrapper of the low-precision levels."""

    def construct(self, data: Any, label: Any) -> Any:
        out = self._backbone(data)
        label = _amp_scope.cast_floats(label, tf.float32)
        return self._loss_fn(_amp_scope.cast_floats(out, tf.float32), label)


# ------------------------------------------------------------------------------------------ marking
def _set_mark(cell: Cell, mark: _amp_scope.AmpCell | None) -> None:
    if mark is None:
        cell.__dict__.pop("_amp_cell", None)
    else:
        cell.__dict__["_amp_cell"] = mark
    _state.bump()


def _precision_set_by_user(cell: Cell) -> bool:
    return any(cell.__dict__.get(flag) is True for flag in ("fp16", "fp32", "bf16"))


def _mark_white_list(network: Cell, dtype: Any, white_list: list) -> Cell:
    """O1 / custom white list: mark white-list cells and install the white-list primitive scope."""
    low = mstype.as_tf_dtype(dtype)
    cell_types = {t for t in white_list if issubclass(t, Cell)}
    prim_types = frozenset(t for t in white_list if issubclass(t, Primitive))
    prim_names = {t.__name__ for t in prim_types}
    scope = _amp_scope.AmpScope(low, white=prim_types)
    force = _amp_scope.AmpScope(low, force=True)
    white_mark = _amp_scope.AmpCell(force, cast_in=low, cast_out=tf.float32)

    def keep_user_precision(cell: Cell) -> None:
        for _, sub in cell.cells_and_names():
            if sub is not cell and _precision_set_by_user(sub):
                _set_mark(sub, _amp_scope.AmpCell(None))

    def visit(cell: Cell) -> None:
        for child in cell.cells():
            if child is None or child is cell:
                continue
            if _precision_set_by_user(child):
                _set_mark(child, _amp_scope.AmpCell(None))
            elif type(child) in cell_types or _CELL_PRIMITIVE.get(type(child)) in prim_names:
                _set_mark(child, white_mark)
                keep_user_precision(child)
            else:
                _set_mark(child, _amp_scope.AmpCell(scope))
                visit(child)

    if _precision_set_by_user(network):
        return network
    if type(network) in cell_types or _CELL_PRIMITIVE.get(type(network)) in prim_names:
        _set_mark(network, white_mark)
        keep_user_precision(network)
        return network
    _set_mark(network, _amp_scope.AmpCell(scope))
    visit(network)
    return network


def _mark_auto_strategy(network: Cell, dtype: Any) -> Cell:
    """'auto' on CPU: MindSpore 2.10's operator-level strategy, for primitives and for tfspore's layers."""
    low = mstype.as_tf_dtype(dtype)
    scope = _amp_scope.AmpScope(low, auto_white=frozenset(AMP_AUTO_WHITE_LIST),
                                auto_black=frozenset(AMP_AUTO_BLACK_LIST),
                                auto_promote=frozenset(AMP_AUTO_PROMOTE_LIST))
    black_mark = _amp_scope.AmpCell(cast_in=tf.float32)

    def mark(cell: Cell) -> bool:
        if _precision_set_by_user(cell):
            _set_mark(cell, _amp_scope.AmpCell(None))
            return False
        if isinstance(cell, _AUTO_WHITE_CELLS):
            bias = bool(getattr(cell, "has_bias", False))
            _set_mark(cell, _amp_scope.AmpCell(cast_in=low, cast_out=tf.float32 if bias else None))
            return False
        if isinstance(cell, _AUTO_BLACK_CELLS):
            _set_mark(cell, black_mark)
            return False
        return True

    _set_mark(network, _amp_scope.AmpCell(scope))
    stack = [c for c in network.cells() if c is not None]
    while stack:
        cell = stack.pop()
        if mark(cell):
            stack.extend(c for c in cell.cells() if c is not None)
    return network


def _mark_keras(cell: Cell, policy: str | None) -> None:
    """Give the Keras layers held as attributes of ``cell`` (and its sub-cells) the dtype policy ``policy``."""
    if policy is None:
        return
    import keras
    for _, sub in cell.cells_and_names():
        for value in list(vars(sub).values()):
            if isinstance(value, keras.layers.Layer):
                value.dtype_policy = keras.DTypePolicy(policy)


def _keras_policy(dtype: Any) -> str:
    return "mixed_bfloat16" if dtype == mstype.bfloat16 else "mixed_float16"


def _to_float(network: Cell, dtype: Any) -> Cell:
    """``network.to_float(dtype)``, with the Keras layers inside following the matching mixed policy."""
    network.to_float(dtype)
    _mark_keras(network, _keras_policy(dtype) if dtype in (mstype.float16, mstype.bfloat16) else "float32")
    return network


def _auto_black_list(network: Cell, black_list: list, dtype: Any) -> Cell:
    """Cast ``network`` to ``dtype``; black-list sub-cells compute in float32 and return ``dtype``."""
    _to_float(network, dtype)
    _keep_black_fp32(network, tuple(black_list), dtype)
    return network


def _keep_black_fp32(network: Cell, black: tuple, dtype: Any) -> None:
    changed = False
    for name, sub in list(network._cells.items()):
        if sub is None or sub is network:
            continue
        if isinstance(sub, black):
            network._cells[name] = _OutputTo16(_to_float(sub, mstype.float32), dtype)
            changed = True
        else:
            _keep_black_fp32(sub, black, dtype)
    if changed:
        _state.bump()


def _dtype_check(dtype: Any) -> None:
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")


def _device() -> str:
    """'TPU' under a TPU strategy or with TPU devices, else the context's device_target ('CPU' or 'GPU')."""
    strategy = tf.distribute.get_strategy()
    if "TPU" in type(strategy).__name__ or tf.config.list_logical_devices("TPU"):
        return "TPU"
    return _context.get_context("device_target")


def _auto_as_level(dtype: Any) -> tuple[str, Any] | None:
    """What 'auto' means on this device: (level, dtype) for GPU and TPU, None for the CPU strategy."""
    device = _device()
    if device == "GPU":
        return "O2", dtype
    if device == "TPU":
        return "O3", mstype.bfloat16
    return None


# ------------------------------------------------------------------------------------ public API
def auto_mixed_precision(network: Cell | Callable, amp_level: str = "O0", dtype: Any = mstype.float16) -> Any:
    """Return ``network`` set up for mixed precision at ``amp_level`` (``mindspore.amp.auto_mixed_precision``).

    - ``O0``: the network unchanged.
    - ``O1``: the cells and primitives of :func:`get_white_list` compute in ``dtype`` (inputs and
      parameters cast down, outputs cast back to float32). The network is converted in place and
      returned.
    - ``O2``: the network computes in ``dtype`` except the cells of :func:`get_black_list`, which
      compute in float32 and return ``dtype``; the result is wrapped so that its outputs are float32.
    - ``O3``: the whole network computes in ``dtype``; its outputs are cast to float32.
    - ``auto``: on GPU as ``O2``, on TPU as ``O3`` in bfloat16, on CPU MindSpore's operator-level
      strategy: ``MatMul``, ``Conv2D``, ``BatchMatMul``, ``PReLU``, ``Einsum``, ... (and the Dense and
      Conv layers) compute in ``dtype`` with ``dtype`` outputs (a layer's float32 bias makes its output
      float32, as MindSpore's promote-list ``BiasAdd`` does); ``Softmax``, ``LogSoftmax``, ``Exp``,
      ``Log``, the norms, ... (and the BatchNorm, LayerNorm, GroupNorm, Softmax layers) compute in
      float32; the rest runs in its input type. A cell set with ``to_float`` keeps its type.

    The level is recorded as ``network._amp_level``. Parameters stay float32.

    Args:
        network: the network (a Cell; a function only for ``auto``).
        amp_level: 'O0', 'O1', 'O2', 'O3' or 'auto'.
        dtype: the low-precision type, ``mstype.float16`` or ``mstype.bfloat16``.

    Returns:
        The network for mixed precision (a wrapper Cell for O2 and O3).

    Raises:
        TypeError: when ``network`` is not a Cell (or a function for 'auto').
        ValueError: when ``dtype`` is not float16 or bfloat16, or ``amp_level`` is unknown.

    Example:
        >>> from tfspore import amp, nn
        >>> net = amp.auto_mixed_precision(nn.Dense(3, 2), "O3")
    """
    if not isinstance(network, Cell):
        if amp_level == "auto":
            if not inspect.isfunction(network) and not inspect.ismethod(network):
                raise TypeError(f"For amp_level 'auto', the network type should be Cell or function, but got "
                                f"{type(network).__name__}.")
        else:
            raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell, but got "
                            f"{type(network).__name__}.")
    _dtype_check(dtype)
    if amp_level == "O0":
        return network
    if amp_level not in _LEVELS:
        raise ValueError(f"The amp level {amp_level} is not supported")
    previous = getattr(network, "_amp_level", None) if isinstance(network, Cell) else None
    if previous in ("O1", "O2", "O3", "auto"):
        _logger.warning("The network's auto mixed-precision level is adjusted from %s to %s, and repeated calls to "
                        "mixed-precision interfaces can cause performance degradation.", previous, amp_level)
    level, low = amp_level, dtype
    if amp_level == "auto":
        chosen = _auto_as_level(dtype)
        if chosen is not None:
            level, low = chosen
        elif not isinstance(network, Cell):
            return _auto_function(network, dtype)
    if level == "O1":
        network = _mark_white_list(network, low, AMP_WHITE_LIST)
    elif level == "O2":
        network = _OutputTo32(_auto_black_list(network, AMP_BLACK_LIST, low))
    elif level == "O3":
        network = _OutputTo32(_to_float(network, low))
    elif level == "auto":
        network = _mark_auto_strategy(network, low)
    _set_amp_level(network, amp_level)
    return network


def _auto_function(fn: Callable, dtype: Any) -> Callable:
    """A function run under the CPU 'auto' operator strategy (its primitives follow the auto lists)."""
    import functools
    scope = _amp_scope.AmpScope(mstype.as_tf_dtype(dtype), auto_white=frozenset(AMP_AUTO_WHITE_LIST),
                                auto_black=frozenset(AMP_AUTO_BLACK_LIST),
                                auto_promote=frozenset(AMP_AUTO_PROMOTE_LIST))

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        prev = _amp_scope.swap(scope)
        try:
            return fn(*args, **kwargs)
        finally:
            _amp_scope.swap(prev)
    return wrapper


def _set_amp_level(network: Any, level: str) -> None:
    if isinstance(network, Cell):
        network.__dict__["_amp_level"] = level


def _list_check(custom_list: Any, list_name: str) -> None:
    if not isinstance(custom_list, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(custom_list)}")
    for elem in custom_list:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == "white_list" and not issubclass(elem, (Cell, Primitive)):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell' and 'Primitive', "
                            f"but got {elem}")
        if list_name == "black_list" and not issubclass(elem, Cell):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', but got {elem}")
    if list_name == "black_list":
        for elem in AMP_BLACK_LIST:
            if elem not in custom_list:
                _logger.warning("%s is removed from internal black list.", elem)


def custom_mixed_precision(network: Cell, *, white_list: list | None = None, black_list: list | None = None,
                           dtype: Any = mstype.float16) -> Cell:
    """Mixed precision with a custom white list or black list (``mindspore.amp.custom_mixed_precision``).

    With ``white_list``, its cells and primitives compute in ``dtype`` (inputs cast down, outputs cast
    back to float32), as O1 does with :func:`get_white_list`; the network is converted in place. With
    ``black_list``, the network computes in ``dtype`` except the listed cells (float32, outputs cast
    to ``dtype``), and the result is wrapped so that its outputs are float32, as O2 does.

    Args:
        network: the network.
        white_list: Cell and Primitive classes to compute in low precision.
        black_list: Cell classes to keep in float32.
        dtype: ``mstype.float16`` or ``mstype.bfloat16``.

    Returns:
        The network for mixed precision.

    Raises:
        TypeError: when ``network`` is not a Cell or a list is malformed.
        ValueError: when neither or both lists are given, or ``dtype`` is not float16 or bfloat16.

    Example:
        >>> from tfspore import amp, nn
        >>> wl = amp.get_white_list() + [nn.Flatten]
        >>> net = amp.custom_mixed_precision(nn.SequentialCell([nn.Flatten(), nn.Dense(4, 2)]), white_list=wl)
    """
    if not isinstance(network, Cell):
        raise TypeError(f"The network type should be Cell, but got {type(network).__name__}.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be provided "
                         "at the same time, please provide one or the other.")
    _dtype_check(dtype)
    if white_list is not None:
        _list_check(white_list, "white_list")
        return _mark_white_list(network, dtype, white_list)
    _list_check(black_list, "black_list")
    return _OutputTo32(_auto_black_list(network, black_list, dtype))


# ------------------------------------------------------------------------------- build_train_network
_config_level = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16,
           "loss_scale_manager": DynamicLossScaleManager()},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
    "auto": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
}


def _check_kwargs(kwargs: dict) -> None:
    for arg in kwargs:
        if arg not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{arg}'")
    if "cast_model_type" in kwargs:
        value = kwargs["cast_model_type"]
        if value not in (mstype.float16, mstype.float32):
            raise TypeError(f"The 'cast_model_type' should be one of [mindspore.float16, mindspore.float32], but got "
                            f"'{value}'.")
    if "keep_batchnorm_fp32" in kwargs and not isinstance(kwargs["keep_batchnorm_fp32"], bool):
        raise TypeError(f"The type of 'keep_batchnorm_fp32' should be 'bool', but got type "
                        f"'{type(kwargs['keep_batchnorm_fp32']).__name__}'.")
    mgr = kwargs.get("loss_scale_manager")
    if mgr and not isinstance(mgr, LossScaleManager):
        raise TypeError(f"The type of 'loss_scale_manager' should be one of '['LossScaleManager', "
                        f"'GroupLossScaleManager']', but got type '{type(mgr).__name__}'.")


def _check_level(level: Any, boost_level: Any) -> tuple[str, bool]:
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in {_LEVELS},but got type {type(level)}.")
    if level not in _LEVELS:
        raise ValueError(f"The 'level' should be in : {_LEVELS}, but got {level}.")
    if boost_level not in _BOOST_LEVELS:
        raise ValueError(f"The 'boost_level' should be in : {_BOOST_LEVELS}, but got {boost_level}.")
    return level, boost_level in ("O1", "O2")


def _mixed_precision_process(network: Cell, config: dict, level: str) -> Cell:
    cast = config["cast_model_type"]
    if cast in (mstype.float16, mstype.bfloat16):
        _to_float(network, cast)
        if config["keep_batchnorm_fp32"]:
            _keep_black_fp32(network, tuple(AMP_BLACK_LIST), cast)
    elif not config["keep_batchnorm_fp32"] and level == "O2":
        _to_float(network, mstype.float16)
    elif cast == mstype.float32 and level in ("O2", "O3"):
        pass
    else:
        network = auto_mixed_precision(network, level)
    return network


def _add_loss_network(network: Cell, loss_fn: Any, cast_model_type: Any) -> Cell:
    if not isinstance(loss_fn, Cell):
        raise TypeError(f"For 'build_train_network', the type of 'loss_fn' should be 'Cell', but got type "
                        f"'{type(loss_fn).__name__}'.")
    if cast_model_type in (mstype.float16, mstype.bfloat16) or getattr(network, "_amp_level", None) in (
            "O2", "O3", "auto"):
        return WithLossCell(network, loss_fn)
    return nn.WithLossCell(network, loss_fn)


def _boost(train_net: Cell) -> Cell:
    """boost_level O1/O2: compile the train step with XLA (GRAPH_MODE), unless its jit config says otherwise."""
    cfg = train_net.jit_config_dict
    if "jit_compile" not in cfg and "jit_level" not in cfg:
        train_net.__dict__["_jit_config_dict"] = dict(cfg, jit_compile=True)
        _state.bump()
    return train_net


def build_train_network(network: Cell, optimizer: Cell, loss_fn: Cell | None = None, level: str = "O0",
                        boost_level: str = "O0", **kwargs: Any) -> Cell:
    """Build the mixed-precision training cell (``mindspore.amp.build_train_network``).

    Per level (``kwargs`` override each setting):

    ======  ===================  ===============  =====================================
    level   keep_batchnorm_fp32  cast_model_type  loss_scale_manager
    ======  ===================  ===============  =====================================
    O0      False                float32          None
    O1      False                float32          None
    O2      True                 float16          DynamicLossScaleManager() (shared)
    O3      False                float16          None
    auto    False                float32          None
    ======  ===================  ===============  =====================================

    With a float16 ``cast_model_type`` the network is cast with :meth:`Cell.to_float` and, with
    ``keep_batchnorm_fp32``, its BatchNorm1d/2d/3d and LayerNorm cells compute in float32 and return
    float16; O1 and auto go through :func:`auto_mixed_precision` (auto on GPU is O2 with the O2
    settings, on TPU O3 in bfloat16). The loss then gets the network's outputs and the label cast to
    float32. A loss scale manager with an update cell gives a
    :class:`~tfspore.nn.TrainOneStepWithLossScaleCell`; otherwise a :class:`~tfspore.nn.TrainOneStepCell`
    with the manager's loss scale as ``sens``. tfspore follows MindSpore's GPU behaviour on every
    device: MindSpore's CPU build refuses update cells (O2's default manager included), tfspore runs them.

    ``boost_level`` 'O1' and 'O2' compile the training step with XLA (``jit_compile``) in GRAPH_MODE,
    unless the network's jit config chooses otherwise; MindSpore's boost algorithms (less_bn,
    grad_freeze, adasum) are Ascend features and are not applied.

    Args:
        network: the network.
        optimizer: the optimizer (an :class:`~tfspore.nn.Optimizer`).
        loss_fn: the loss Cell, or None when ``network`` computes the loss.
        level: 'O0', 'O1', 'O2', 'O3' or 'auto'.
        boost_level: 'O0', 'O1' or 'O2'.
        **kwargs: ``cast_model_type`` (``mstype.float16`` or ``mstype.float32``),
            ``keep_batchnorm_fp32`` (bool), ``loss_scale_manager`` (a LossScaleManager or None).

    Returns:
        The training Cell (``TrainOneStepCell`` or ``TrainOneStepWithLossScaleCell``), in train mode.

    Raises:
        TypeError: for an optimizer that is not an Optimizer, a level that is not a str, or a kwarg of
            the wrong type.
        ValueError: for an unknown level or boost_level, or an unsupported kwarg.

    Example:
        >>> from tfspore import amp, nn
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        >>> type(amp.build_train_network(net, opt, nn.MSELoss(), level="O2")).__name__
        'TrainOneStepWithLossScaleCell'
    """
    if not isinstance(optimizer, nn.Optimizer):
        raise TypeError(f"The type of 'optimizer' should be one of '['Optimizer', 'FreezeOpt', "
                        f"'AdaSumByGradWrapCell', 'AdaSumByDeltaWeightWrapCell']', but got type "
                        f"'{type(optimizer).__name__}'.")
    level, enable_boost = _check_level(level, boost_level)
    _check_kwargs(kwargs)
    config_level = level
    if level == "auto":
        chosen = _auto_as_level(mstype.float16)
        if chosen is not None:
            config_level = chosen[0]
    config = dict(_config_level[config_level], **kwargs)
    if level == "auto" and config_level == "O3" and "cast_model_type" not in kwargs:
        config["cast_model_type"] = mstype.bfloat16
    network = _mixed_precision_process(network, config, config_level)
    if level == "auto" and isinstance(network, Cell):
        _set_amp_level(network, "auto")
    if loss_fn:
        network = _add_loss_network(network, loss_fn, config["cast_model_type"])
    loss_scale = None
    mgr = config["loss_scale_manager"]
    if mgr is not None:
        loss_scale = mgr.get_loss_scale()
        update_cell = mgr.get_update_cell()
        if update_cell is not None:
            train = nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
            return _boost(train) if enable_boost else train
    train = nn.TrainOneStepCell(network, optimizer, loss_scale).set_train()
    return _boost(train) if enable_boost else train
