"""MindSpore data types (``mindspore.common.dtype``, usually imported as ``mstype``).

Each dtype is a :class:`Type` object that prints with MindSpore's capitalised name
(``Float32``) and maps to a TensorFlow ``tf.DType`` and a numpy dtype.

Example:
    >>> from tfspore.common import dtype as mstype
    >>> print(mstype.float32)
    Float32
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np
import tensorflow as tf

__all__ = [
    "Type", "TensorType", "bool_", "int8", "byte", "int16", "short", "int32", "intc", "int64", "long", "intp",
    "uint8", "ubyte", "uint16", "ushort", "uint32", "uintc", "uint64", "uintp", "float16", "half", "float32",
    "single", "float64", "double", "bfloat16", "complex64", "cfloat", "complex128", "cdouble", "number", "int_",
    "uint", "float_", "string", "list_", "tuple_", "type_none", "tensor_type", "number_type", "int_type",
    "uint_type", "float_type", "signed_type", "complex_type", "all_types", "pytype_to_dtype", "get_py_obj_dtype",
    "dtype_to_nptype", "dtype_to_pytype", "type_size_in_bytes", "as_tf_dtype", "from_tf_dtype", "is_float",
]


class Type:
    """A MindSpore data type.

    Args:
        name: MindSpore's printed name, e.g. ``"Float32"``.
        attr: the lower-case attribute name, e.g. ``"float32"``.
        tf_dtype: the TensorFlow dtype, or None for abstract types.
        np_dtype: the numpy dtype, or None for abstract types.
    """

    __slots__ = ("_name", "_attr", "_tf", "_np", "_kind")

    def __init__(self, name: str, attr: str, tf_dtype: tf.DType | None = None, np_dtype: Any = None,
                 kind: str = "") -> None:
        self._name = name
        self._attr = attr
        self._tf = tf_dtype
        self._np = np_dtype
        self._kind = kind

    def __str__(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"mindspore.{self._attr}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Type):
            return self is other or (self._tf is not None and self._tf == other._tf) or (
                self._tf is None and other._tf is None and self._name == other._name)
        return False

    def __hash__(self) -> int:
        return hash(self._name)

    def __reduce__(self):
        return (_lookup, (self._attr,))

    @property
    def tf_dtype(self) -> tf.DType | None:
        """The TensorFlow dtype this type maps to."""
        return self._tf

    @property
    def np_dtype(self):
        """The numpy dtype this type maps to."""
        return self._np

    @property
    def is_floating_point(self) -> bool:
        """Whether this is a floating-point type."""
        return self._kind == "float"

    def to_tf(self) -> tf.DType:
        """Return the TensorFlow dtype, raising TypeError for abstract types."""
        if self._tf is None:
            raise TypeError(f"The dtype {self._name} has no TensorFlow equivalent.")
        return self._tf


class TensorType(Type):
    """The type of a Tensor whose elements have ``element_type``."""

    def __init__(self, element_type: Type | None = None) -> None:
        super().__init__("TensorType" if element_type is None else f"Tensor[{element_type}]", "tensor_type")
        self.element_type = element_type

    def element_type_(self) -> Type | None:
        return self.element_type


def _mk(name, attr, tfd, npd, kind):
    return Type(name, attr, tfd, np.dtype(npd) if npd is not None else None, kind)


bool_ = _mk("Bool", "bool_", tf.bool, np.bool_, "bool")
int8 = _mk("Int8", "int8", tf.int8, np.int8, "int")
int16 = _mk("Int16", "int16", tf.int16, np.int16, "int")
int32 = _mk("Int32", "int32", tf.int32, np.int32, "int")
int64 = _mk("Int64", "int64", tf.int64, np.int64, "int")
uint8 = _mk("UInt8", "uint8", tf.uint8, np.uint8, "uint")
uint16 = _mk("UInt16", "uint16", tf.uint16, np.uint16, "uint")
uint32 = _mk("UInt32", "uint32", tf.uint32, np.uint32, "uint")
uint64 = _mk("UInt64", "uint64", tf.uint64, np.uint64, "uint")
float16 = _mk("Float16", "float16", tf.float16, np.float16, "float")
float32 = _mk("Float32", "float32", tf.float32, np.float32, "float")
float64 = _mk("Float64", "float64", tf.float64, np.float64, "float")
bfloat16 = Type("BFloat16", "bfloat16", tf.bfloat16, np.dtype(tf.bfloat16.as_numpy_dtype), "float")
complex64 = _mk("Complex64", "complex64", tf.complex64, np.complex64, "complex")
complex128 = _mk("Complex128", "complex128", tf.complex128, np.complex128, "complex")
string = Type("String", "string", tf.string, np.dtype(object), "string")

byte, short, intc, long, intp = int8, int16, int32, int64, int64
ubyte, ushort, uintc, uintp = uint8, uint16, uint32, uint64
half, single, double = float16, float32, float64
cfloat, cdouble = complex64, complex128
bool = bool_  # noqa: A001  (MindSpore exports this name)
int = int32  # noqa: A001
float = float32  # noqa: A001

number = Type("Number", "number")
int_ = Type("Int", "int_")
uint = Type("UInt", "uint")
float_ = Type("Float", "float_")
list_ = Type("List", "list_")
tuple_ = Type("Tuple", "tuple_")
type_none = Type("TypeNone", "type_none")
tensor_type = TensorType()

number_type = (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16,
               complex64, complex128)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
signed_type = (int8, int16, int32, int64, float16, float32, float64, bfloat16, complex64, complex128)
complex_type = (complex64, complex128)
all_types = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16,
             complex64, complex128)

_CONCRETE = all_types + (string,)
_BY_TF = {t._tf: t for t in _CONCRETE}
_BY_NP = {t._np: t for t in _CONCRETE if t is not string}
_BY_ATTR = {t._attr: t for t in _CONCRETE + (number, int_, uint, float_, list_, tuple_, type_none)}
_BY_ATTR["bool"] = bool_


def _lookup(attr: str) -> Type:
    return _BY_ATTR[attr]


def from_tf_dtype(tf_dtype: tf.DType) -> Type:
    """Return the MindSpore type for a TensorFlow dtype."""
    try:
        return _BY_TF[tf.as_dtype(tf_dtype)]
    except KeyError:
        raise TypeError(f"The TensorFlow dtype {tf_dtype!r} has no MindSpore equivalent.") from None


def from_np_dtype(np_dtype: Any) -> Type:
    """Return the MindSpore type for a numpy dtype."""
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"The numpy dtype {np_dtype!r} has no MindSpore equivalent.") from None


def as_ms_dtype(dtype: Any, api: str = "dtype", arg: str = "dtype") -> Type:
    """Normalise a MindSpore Type, tf.DType, numpy dtype or python type to a concrete MindSpore Type.

    Raises:
        TypeError: naming ``api`` and ``arg`` when ``dtype`` is not a data type.
    """
    if isinstance(dtype, Type):
        if dtype._tf is None:
            raise TypeError(f"For '{api}', the '{arg}' must be a concrete data type, but got {dtype}.")
        return dtype
    if isinstance(dtype, tf.DType):
        return from_tf_dtype(dtype)
    if dtype is builtins.bool:
        return bool_
    if dtype is builtins.int:
        return int64
    if dtype is builtins.float:
        return float32
    try:
        return from_np_dtype(dtype)
    except TypeError:
        pass
    if hasattr(dtype, "ms_dtype"):
        return dtype.ms_dtype
    raise TypeError(f"For '{api}', the '{arg}' must be a mindspore dtype, but got {dtype!r} "
                    f"of type {type(dtype).__name__}.")


def as_tf_dtype(dtype: Any) -> tf.DType:
    """Return the TensorFlow dtype for a MindSpore type (or anything :func:`as_ms_dtype` takes)."""
    if isinstance(dtype, tf.DType):
        return dtype
    return as_ms_dtype(dtype).to_tf()


def is_float(dtype: Any) -> builtins.bool:
    """Whether ``dtype`` is a floating-point type."""
    return as_tf_dtype(dtype).is_floating


def pytype_to_dtype(obj: Any) -> Type:
    """Convert a python or numpy type to a MindSpore type.

    Args:
        obj: ``bool``, ``int``, ``float``, a numpy dtype or a MindSpore Type.

    Returns:
        Type: the MindSpore type.
    """
    if isinstance(obj, Type):
        return obj
    if obj is builtins.bool:
        return bool_
    if obj is builtins.int:
        return int64
    if obj is builtins.float:
        return float64
    if obj is builtins.list:
        return list_
    if obj is builtins.tuple:
        return tuple_
    if obj is None:
        return type_none
    return as_ms_dtype(obj, "pytype_to_dtype", "obj")


def get_py_obj_dtype(obj: Any) -> Type:
    """Return the MindSpore type of a python object (a Tensor's dtype for a Tensor)."""
    if hasattr(obj, "dtype") and isinstance(getattr(obj, "dtype"), Type):
        return obj.dtype
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    return pytype_to_dtype(type(obj))


def dtype_to_nptype(type_: Any):
    """Return the numpy type of a MindSpore type.

    Example:
        >>> dtype_to_nptype(float32)
        <class 'numpy.float32'>
    """
    t = as_ms_dtype(type_, "dtype_to_nptype", "type_")
    return t._np.type


def dtype_to_pytype(type_: Any) -> type:
    """Return the python type of a MindSpore type (bool, int, float or complex)."""
    t = as_ms_dtype(type_, "dtype_to_pytype", "type_")
    return {"bool": builtins.bool, "int": builtins.int, "uint": builtins.int, "float": builtins.float,
            "complex": complex, "string": str}[t._kind]


def type_size_in_bytes(dtype: Any) -> builtins.int:
    """Return the element size of ``dtype`` in bytes."""
    return as_tf_dtype(dtype).size
