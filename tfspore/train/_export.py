"""``export`` and ``load`` (MindIR / AIR / ONNX): MindSpore's signatures and file naming.

``export`` checks its arguments as MindSpore does, then hands the network to the writer of
``file_format`` in :data:`_WRITERS` (one entry per format: ``MINDIR`` writes MindSpore's own
``mind_ir.proto`` through :mod:`tfspore.train.mindir`). A format without a writer raises a clear
error; AIR is a format of Ascend's toolchain only.
"""
from __future__ import annotations

from typing import Any, Callable

from tfspore.train.mindir import load_mindir, save_mindir
from tfspore.train.tf_export import save_onnx, save_savedmodel, save_tflite

__all__ = ["export", "load"]

_FORMATS = ["AIR", "ONNX", "MINDIR"]

#: file_format -> writer ``(net, inputs, file_name, **kwargs) -> path written``.
_WRITERS: dict[str, Callable[..., Any]] = {
    "MINDIR": save_mindir,
    "ONNX": save_onnx,  # through tf2onnx (the onnx extra)
    "SAVEDMODEL": save_savedmodel,  # tfspore's own: a TensorFlow SavedModel directory
    "TFLITE": save_tflite,  # tfspore's own: file_name + '.tflite'
}
_WEIGHTS_HINT = ("save the trained weights with mindspore.save_checkpoint(net, 'net.ckpt') (MindSpore's .ckpt "
                 "format, readable by MindSpore), or the network as a TensorFlow SavedModel with "
                 "tf.saved_model.save(net, path)")


def export(net: Any, *inputs: Any, file_name: str, file_format: str = "MINDIR", **kwargs: Any) -> None:
    """Export ``net`` to a model file (MindSpore's ``mindspore.export``).

    ``MINDIR`` traces the network's construct on ``inputs`` and writes its graph as MindSpore
    primitives with the Parameters as weights, to ``file_name + '.mindir'`` (unless ``file_name``
    ends so already), which real MindSpore's ``mindspore.load`` and ``nn.GraphCell`` run. The
    network runs in its current mode, as in MindSpore (call ``net.set_train(False)`` first for
    an inference graph).

    Args:
        net: the network (a Cell).
        *inputs: example inputs fixing the exported shapes and dtypes.
        file_name: the output file name.
        file_format: 'MINDIR', 'ONNX' or 'AIR'.
        **kwargs: MindSpore's export options (``custom_func`` is called with the MindIR
            ``ModelProto`` before it is written).

    Raises:
        ValueError: when ``file_format`` is not one of MindSpore's formats.
        TypeError: when ``file_name`` is not a str.
        RuntimeError: for 'AIR', which only MindSpore's Ascend build writes.
        NotImplementedError: for a format without a writer, for an operation MindIR export does
            not cover (the message names it), and for encrypted MindIR.

    Example:
        >>> export(net, Tensor(np.ones((1, 1, 32, 32), np.float32)), file_name="lenet", file_format="MINDIR")
    """
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    if file_format not in _FORMATS and file_format not in _WRITERS:
        raise ValueError(f"For 'export', 'file_format' must be one of {_FORMATS}, but got {file_format}.")
    if not isinstance(file_name, str):
        raise TypeError(f"For 'export', the 'file_name' must be str, but got {type(file_name).__name__}.")
    if file_format == "AIR":
        raise RuntimeError(f"For 'export', the 'file_format' 'AIR' (file_name {file_name!r}) is only supported on "
                           "Ascend: AIR models are built by Ascend's toolchain, which tfspore (on TensorFlow) does "
                           f"not have. To keep the model, {_WEIGHTS_HINT}.")
    writer = _WRITERS.get(file_format)
    if writer is None:
        raise NotImplementedError(f"For 'export', the 'file_format' {file_format!r} is not supported yet by tfspore "
                                  f"(file_name {file_name!r}); to keep the model, {_WEIGHTS_HINT}.")
    writer(net, inputs, file_name, **kwargs)


def load(file_name: str, **kwargs: Any) -> Any:
    """Load a MindIR file (written by MindSpore 2.10 or by tfspore) as a graph for ``nn.GraphCell``.

    The graph runs on TensorFlow: its weights are variables and its operators TensorFlow ops in one
    ``tf.function``, so ``GraphCell(graph)`` runs in PYNATIVE and GRAPH mode and saves with
    ``tf.saved_model.save``. Weights stored beside a large model (``<name>_variables/``) are read
    too.

    Args:
        file_name: a ``.mindir`` file.
        **kwargs: ``dec_key`` (bytes) and ``dec_mode`` ('AES-GCM' by default, 'AES-CBC', 'SM4-CBC' or a
            callable ``(data, key) -> bytes``) for an encrypted file, as in MindSpore.

    Returns:
        tfspore.train.mindir.MindIRGraph: the graph, callable with the file's inputs.

    Raises:
        NotImplementedError: for ``obf_func`` (as MindSpore).
        ValueError: when ``file_name`` is not a string, does not end with '.mindir' or does not exist
            (MindSpore's checks), or for a bad ``dec_key`` / ``dec_mode``.
        RuntimeError: when the file cannot be read (not a MindIR, truncated, encrypted with another
            key, a weight file missing) or uses an operator tfspore cannot run (the error names it).

    Example:
        >>> net = nn.GraphCell(load("lenet.mindir"))  # doctest: +SKIP
        >>> net(Tensor(np.ones((1, 1, 32, 32), np.float32))).shape  # doctest: +SKIP
        (1, 10)
    """
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    return load_mindir(file_name, kwargs.get("dec_key"), kwargs.get("dec_mode", "AES-GCM"), api="load")
