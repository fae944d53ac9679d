"""Internal layer shared by every tfspore package.

Modules here import nothing from the other tfspore packages (only the standard library, numpy and
TensorFlow), so ``common``, ``ops``, ``nn``, ``train`` and ``dataset`` can all import them by their
public names without creating an import circle.

- :mod:`tfspore._internal.validator`: argument checks with one message template and MindSpore's
  exception types.
- :mod:`tfspore._internal.runtime_check`: checks on tensor values made when an op runs (index
  ranges of gathers), raising MindSpore's RuntimeError in PYNATIVE and GRAPH mode.
- :mod:`tfspore._internal.cluster`: the multi-process cluster this process belongs to (from
  ``TF_CONFIG`` or OpenMPI's environment) and the ``tf.distribute`` strategy over it, used by
  ``mindspore.communication`` and the collective ops.
"""
