"""``export`` and ``load`` (MindIR / AIR / ONNX): MindSpore's signatures, not implemented on TensorFlow yet.

Both check their arguments as MindSpore does and then raise a clear error: MindIR and ONNX
export are not written by tfspore yet; AIR is a format of Ascend's toolchain only.
"""
from __future__ import annotations

import os
from typing import Any

__all__ = ["export", "load"]

_FORMATS = ["AIR", "ONNX", "MINDIR"]
_WEIGHTS_HINT = ("save the trained weights with mindspore.save_checkpoint(net, 'net.ckpt') (MindSpore's .ckpt "
                 "format, readable by MindSpore), or the network as a TensorFlow SavedModel with "
                 "tf.saved_model.save(net, path)")


def export(net: Any, *inputs: Any, file_name: str, file_format: str = "MINDIR", **kwargs: Any) -> None:
    """Export ``net`` to a model file: not supported by tfspore yet.

    Args:
        net: the network (a Cell).
        *inputs: example inputs fixing the exported shapes.
        file_name: the output file name.
        file_format: 'MINDIR', 'ONNX' or 'AIR'.
        **kwargs: MindSpore's export options (``enc_key``, ``enc_mode``, ``dataset``, ...).

    Raises:
        ValueError: when ``file_format`` is not one of MindSpore's formats.
        RuntimeError: for 'AIR', which only MindSpore's Ascend build writes.
        NotImplementedError: for 'MINDIR' and 'ONNX'.

    Example:
        >>> export(net, Tensor(np.ones((1, 1, 32, 32), np.float32)), file_name="lenet", file_format="MINDIR")
        Traceback (most recent call last):
        NotImplementedError: For 'export', the 'file_format' 'MINDIR' is not supported yet by tfspore; ...
    """
    del net, inputs
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    if file_format not in _FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {_FORMATS}, but got {file_format}.")
    if not isinstance(file_name, str):
        raise TypeError(f"For 'export', the 'file_name' must be str, but got {type(file_name).__name__}.")
    if file_format == "AIR":
        raise RuntimeError(f"For 'export', the 'file_format' 'AIR' (file_name {file_name!r}) is only supported on "
                           "Ascend: AIR models are built by Ascend's toolchain, which tfspore (on TensorFlow) does "
                           f"not have. To keep the model, {_WEIGHTS_HINT}.")
    raise NotImplementedError(f"For 'export', the 'file_format' {file_format!r} is not supported yet by tfspore "
                              f"(file_name {file_name!r}); to keep the model, {_WEIGHTS_HINT}.")


def load(file_name: str, **kwargs: Any) -> Any:
    """Load a MindIR file into a ``GraphCell``: not supported by tfspore yet.

    Args:
        file_name: a ``.mindir`` file.
        **kwargs: ``dec_key`` and ``dec_mode``, as in MindSpore.

    Raises:
        ValueError: when ``file_name`` is not a string, does not end with '.mindir' or does not exist
            (MindSpore's checks).
        NotImplementedError: for an existing MindIR file.

    Example:
        >>> load("lenet.mindir")
        Traceback (most recent call last):
        NotImplementedError: For 'load', MindIR files are not supported yet by tfspore; ...
    """
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    if not isinstance(file_name, str):
        raise ValueError(f"For 'load', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with '.mindir', please input "
                         f"the correct 'file_name', but got {file_name!r}.")
    if not os.path.exists(file_name):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) does not exist, please check whether the "
                         f"'file_name' is correct, but got {file_name!r}.")
    raise NotImplementedError(f"For 'load', MindIR files are not supported yet by tfspore (file_name {file_name!r}); "
                              "load the weights from a .ckpt file with mindspore.load_checkpoint instead.")
