"""Internal layer shared by every tfspore package.

Modules here (but the four at the end of this list) import nothing from the other tfspore packages
(only the standard library, numpy and TensorFlow), so ``common``, ``ops``, ``nn``, ``train`` and
``dataset`` can all import them by their public names without creating an import circle.

- :mod:`tfspore._internal.validator`: argument checks with one message template and MindSpore's
  exception types.
- :mod:`tfspore._internal.runtime_check`: checks on tensor values made when an op runs (index
  ranges of gathers), raising MindSpore's RuntimeError in PYNATIVE and GRAPH mode.
- :mod:`tfspore._internal.cluster`: the multi-process cluster this process belongs to (from
  ``TF_CONFIG`` or OpenMPI's environment) and the ``tf.distribute`` strategy over it, used by
  ``mindspore.communication`` and the collective ops.
- :mod:`tfspore._internal.rank_dirs`: the folder each rank of a job writes its checkpoints and
  summaries into, so that ranks sharing a directory never collide.
- :mod:`tfspore._internal.state`: the trace depth and the configuration epoch that compiled Cells
  key their cache on.
- :mod:`tfspore._internal.layout`: which kernels take NCHW data here, and the helpers that keep
  convolution outputs in NHWC between layers.
- :mod:`tfspore._internal.proto`: the ``.proto`` schemas (checkpoint, summary, lineage) and the
  modules protoc generates from them.
- :mod:`tfspore._internal.pool_window`: the output lengths and adaptive bins of pooling, shared by
  the pooling ops and the pooling layers.
- :mod:`tfspore._internal.shapes`: a tensor's dimensions, static where known and dynamic elsewhere,
  shared by ``ops``, ``numpy`` and ``nn``.
- :mod:`tfspore._internal.norms`: the vector norms of order inf, -inf and 0, shared by ``Tensor.norm``,
  ``ops.norm`` and ``numpy.norm``.
- :mod:`tfspore._internal.reduction`: the ``reduction`` argument of losses, shared by the loss
  functions of ``ops`` and the loss Cells of ``nn``.
- :mod:`tfspore._internal.crypto`: MindSpore's encrypted block format (AES-GCM, AES-CBC, SM4-CBC;
  ``cryptography``), shared by checkpoints, MindIR files and MindRecord files.

Three modules stand one step higher, on ``tfspore.common.tensor`` (nothing in ``common.tensor``
imports them):

- :mod:`tfspore._internal.tensor_wrap`: moving values between TensorFlow and ``Tensor``
  (``wrap``, ``wrap_nest``, ``unwrap_nest``, ``as_tf``).
- :mod:`tfspore._internal.control_flow`: Python ``if``/``while``/``for`` on Tensors in compiled
  user code (AutoGraph extended to ``Tensor`` conditions).
- :mod:`tfspore._internal.summary_cache`: where the summary operators leave their values for
  ``SummaryRecord``.

One more stands on ``tfspore.context`` (which imports only this layer):

- :mod:`tfspore._internal.data_parallel`: the data-parallel mode, gradient mean and device count
  the training wrappers reduce gradients by.
"""
