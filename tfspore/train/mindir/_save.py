"""``export(net, *inputs, file_name, file_format='MINDIR')``: trace, lower, write.

The network's construct is traced once on the example inputs (the GRAPH_MODE ``tf.function``),
the trace is lowered to MindSpore primitives with the Parameters as graph parameters
(:mod:`._lowering`), and the graph is written as one ``mind_ir.ModelProto`` that real MindSpore's
``mindspore.load`` + ``nn.GraphCell`` run. The file is named as MindSpore names it
(``file_name + '.mindir'`` unless it ends so already) and replaced atomically: an interrupted
export leaves the previous file, never a truncated one.

None of this runs in a training step: the trace is one extra ``tf.function`` concrete function,
made only by ``export``.
"""
from __future__ import annotations

import os
from typing import Any

from tfspore.train._atomic import atomic_write
from tfspore.train.mindir import _lower_math, _lower_nn
from tfspore.train.mindir._lowering import Lowering
from tfspore.train.mindir._tf_graph import trace
from tfspore.train.mindir._writer import build_model

__all__ = ["save_mindir", "mindir_path", "RULES"]

#: TensorFlow op type -> lowering rule: the op set MindIR export covers.
RULES: dict = {**_lower_math.RULES, **_lower_nn.RULES}

# A serialized protobuf message must stay under 2 GB; MindSpore splits its files from 1 GB of weights.
_SIZE_LIMIT = int(1.8 * 2**30)


def mindir_path(file_name: str) -> str:
    """The file MindSpore writes for ``file_name``: ``.mindir`` appended unless already there, made absolute."""
    path = file_name if file_name.endswith(".mindir") else file_name + ".mindir"
    return os.path.realpath(path)


def build(net: Any, inputs: tuple, api: str = "export") -> Any:
    """The ``mind_ir.ModelProto`` of ``net`` traced on ``inputs``.

    Raises:
        NotImplementedError: when the network uses an op outside the covered set (named in the message).
    """
    traced = trace(net, inputs)
    graph = Lowering(traced, RULES, api).run()
    return build_model(graph, type(net).__name__)


def save_mindir(net: Any, inputs: tuple, file_name: str, **kwargs: Any) -> str:
    """Write ``net`` as a MindIR file.

    Args:
        net: the Cell.
        inputs: example inputs (their shapes and dtypes are the graph's inputs).
        file_name: the file name (``.mindir`` is appended unless present).
        **kwargs: MindSpore's ``custom_func`` (called with the ``ModelProto`` before writing);
            ``enc_key`` / ``enc_mode`` and ``dataset`` are refused.

    Returns:
        The path written.

    Raises:
        TypeError: when ``net`` is not a Cell.
        ValueError: for an input with unknown dimensions.
        NotImplementedError: for an op outside the covered set (named in the message), for
            encryption, a dataset preprocessing pipeline, or weights over 1.8 GB.
    """
    if not callable(getattr(net, "compile", None)) or not hasattr(net, "parameters_and_names"):
        raise TypeError(f"For 'export', tfspore writes MindIR for a Cell, but got {type(net).__name__} (file_name "
                        f"{file_name!r}): wrap the function in a Cell whose construct calls it.")
    if "enc_key" in kwargs:
        raise NotImplementedError(f"For 'export', encrypted MindIR ('enc_key', file_name {file_name!r}) is not "
                                  "supported by tfspore: export without 'enc_key' and encrypt the file separately.")
    if kwargs.get("dataset") is not None:
        raise NotImplementedError(f"For 'export', a dataset's preprocessing (file_name {file_name!r}) cannot be "
                                  "written into a MindIR by tfspore: pass Tensors as the inputs.")
    model = build(net, tuple(inputs))
    size = sum(len(p.raw_data) for p in model.graph.parameter)
    if size > _SIZE_LIMIT:
        raise NotImplementedError(f"For 'export', the network's weights take {size / 2**30:.2f} GB: tfspore writes "
                                  f"MindIR files up to {_SIZE_LIMIT / 2**30:.1f} GB in one piece (file_name "
                                  f"{file_name!r}); MindSpore's split into '<name>_variables/' is not supported.")
    custom_func = kwargs.get("custom_func")
    if custom_func is not None:
        custom_func(model)
    path = mindir_path(file_name)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    data = model.SerializeToString()
    with atomic_write(path) as f:
        f.write(data)
    return path
