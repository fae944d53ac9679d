"""Protobuf schemas tfspore reads and writes, as ``.proto`` files and the modules protoc makes of them.

Each ``NAME.proto`` here is compiled into ``NAME_pb2.py`` beside it by ``scripts/gen_protos.py``
(never edit a ``*_pb2.py`` by hand; ``tests/_internal/test_protos.py`` fails when one is not
protoc's output for its ``.proto``):

- ``checkpoint.proto``: MindSpore's ``.ckpt`` format (``tfspore.train.serialization``).
- ``anf_ir.proto``, ``summary.proto``, ``lineage.proto``: the MindSpore summary messages that
  ``SummaryRecord`` and ``SummaryCollector`` write (tensors of loss landscapes, lineage); the
  public paths ``tfspore.train.anf_ir_pb2`` / ``summary_pb2`` / ``lineage_pb2`` re-export them.
- ``mind_ir.proto``: MindSpore's MindIR model files (``tfspore.train.mindir``).

The messages keep MindSpore's names and field numbers under the package ``tfspore.*`` instead of
MindSpore's, so they can share protobuf's default descriptor pool with real MindSpore's copies in
one process; package names are not part of the wire format.
"""
