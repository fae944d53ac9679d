"""MindIR, MindSpore's model file format, on TensorFlow.

``tfspore.load`` reads a ``.mindir`` (written by MindSpore 2.10 or by tfspore) into a graph of
TensorFlow ops that ``nn.GraphCell`` runs; the converters turn one into a SavedModel, a TFLite
model or an ONNX model without the network's Python code (``tfspore convert``).

``save_mindir`` writes one (``export(..., file_format="MINDIR")``).

Example:
    >>> from tfspore.train.mindir import load_mindir, mindir_to_savedmodel
    >>> cell = nn.GraphCell(load_mindir("lenet.mindir"))  # doctest: +SKIP
    >>> mindir_to_savedmodel("lenet.mindir", "lenet_savedmodel")  # doctest: +SKIP
"""
from tfspore.train.mindir._convert import mindir_to_onnx, mindir_to_savedmodel, mindir_to_tflite
from tfspore.train.mindir._graph import MindIRGraph, UnsupportedOperatorError
from tfspore.train.mindir._load import load_graph_cell, load_mindir
from tfspore.train.mindir._reader import MindIRReadError
from tfspore.train.mindir._save import save_mindir

__all__ = ["MindIRGraph", "MindIRReadError", "UnsupportedOperatorError", "load_mindir", "load_graph_cell",
           "mindir_to_savedmodel", "mindir_to_tflite", "mindir_to_onnx", "save_mindir"]
