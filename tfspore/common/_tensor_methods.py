"""The combined ``TensorMethods`` mixin of :class:`tfspore.Tensor`.

MindSpore 2.10 binds two signatures to many methods: the legacy numpy-like one
(``sum(axis=None, dtype=None, keepdims=False, initial=None)``) and the newer torch-like one
(``sum(dim=None, keepdim=False, *, dtype=None)``). Both spellings are accepted, and results
follow MindSpore's dtypes (``argmax`` gives Int64, ``argmin``, ``sort`` and ``topk`` indices
Int32, ``sum`` of integers Int64, ...). Every method is plain TF ops, so it works on symbolic
tensors inside ``tf.function``. The methods live in three mixins by family, over the shared
helpers of ``_tensor_method_base``.
"""
from tfspore.common._tensor_math import MathMethods
from tfspore.common._tensor_reduce import ReduceMethods
from tfspore.common._tensor_shape import ShapeMethods

__all__ = ["TensorMethods"]


class TensorMethods(ReduceMethods, ShapeMethods, MathMethods):
    """All the MindSpore Tensor methods beyond construction, conversion and operators."""

    __slots__ = ()
