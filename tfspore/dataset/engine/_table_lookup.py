"""Element-wise transforms of uint8 rows at batch level as one table lookup.

A uint8 value takes 256 values, so a chain of transforms that each map a value on its own, the
same way at every position of a channel (``TensorOperation._table_ok``: Rescale, Normalize,
TypeCast), is a table of ``256 x channels`` entries. The table is computed once, when the
pipeline is built, by the transforms' per-row code in a one-element ``tf.data`` pipeline (the
graph the per-row map would run), so every entry has the per-row numbers; at batch level the
chain is then one gather, which XLA compiles together with its neighbours. Compiling the
arithmetic itself with XLA would change the numbers (XLA contracts a product and a sum into an
FMA, and divides by a constant with its reciprocal).
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import tensorflow as tf

from tfspore.dataset.engine.datasets import _as_tuple

__all__ = ["TableLookup", "with_tables"]


class TableLookup:
    """A chain of element-wise transforms of uint8 rows of `shape`, as a lookup in their table."""

    _tf_random = False

    def __init__(self, ops: Sequence, shape: tf.TensorShape):
        self.ops = list(ops)
        rank = shape.rank
        self.channels = int(shape[-1]) if rank == 3 else 1

        def chain(rows: tf.Tensor) -> tf.Tensor:
            for op in self.ops:
                rows = _as_tuple(op._tf_apply(rows))[0]  # pylint: disable=protected-access
            return rows

        with tf.init_scope(), tf.device("/CPU:0"):  # built once, eagerly, even while a pipeline is traced
            values = tf.cast(tf.range(256), tf.uint8)
            if rank == 3:
                table_rows = tf.tile(tf.reshape(values, [256, 1, 1]), [1, 1, self.channels])
            elif rank == 2:
                table_rows = tf.reshape(values, [256, 1])
            else:
                table_rows = values
            table = tf.data.Dataset.from_tensors(table_rows).map(chain).get_single_element()
            self.table = tf.reshape(table, [-1])  # value v of channel c at v * channels + c

    def _tf_apply_batch(self, batch: tf.Tensor, seed: Optional[tf.Tensor] = None) -> tf.Tensor:
        del seed
        index = tf.cast(batch, tf.int32)
        if self.channels > 1:
            index = index * self.channels + tf.range(self.channels)
        return tf.gather(self.table, index)


def with_tables(ops: Sequence, fast: Sequence[bool],
                tables: Sequence[Tuple[bool, bool, Optional[tf.TensorShape]]]) -> Tuple[List, List[bool]]:
    """`ops` (with their XLA flags `fast`) where each run of table transforms on uint8 rows is one lookup.

    `tables` holds per operation: whether it is a table transform of its input, whether that
    input is uint8, and the input's row shape. A run starts at a table transform of uint8 rows
    and goes on while the operations are table transforms.
    """
    out_ops: List = []
    out_fast: List[bool] = []
    i = 0
    while i < len(ops):
        ok, uint8, shape = tables[i]
        if ok and uint8 and shape is not None and shape.rank in (1, 2, 3):
            j = i + 1
            while j < len(ops) and tables[j][0]:
                j += 1
            out_ops.append(TableLookup(ops[i:j], shape))
            out_fast.append(True)
            i = j
        else:
            out_ops.append(ops[i])
            out_fast.append(fast[i])
            i += 1
    return out_ops, out_fast
