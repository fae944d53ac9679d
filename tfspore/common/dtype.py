"""MindSpore data types (``mindspore.common.dtype``, usually imported as ``mstype``).

Each dtype is a :class:`Type` object that prints with MindSpore's capitalised name
(``Float32``), has MindSpore's ``repr`` (``mindspore.float32``) and maps to a TensorFlow
``tf.DType`` and a numpy dtype. The classes mirror MindSpore's hierarchy (``Number``, ``Int``,
``UInt``, ``Float``, ``BFloat``, ``Bool``, ``Complex``...), so ``isinstance(mstype.int32,
mstype.Int)`` holds and ``mstype.Int(32) is mstype.int32``.

Example:
    >>> from tfspore.common import dtype as mstype
    >>> print(mstype.float32)
    Float32
    >>> mstype.float32
    mindspore.float32
"""
from __future__ import annotations

import builtins
import enum
import inspect
from typing import Any

import numpy as np
import tensorflow as tf

# MindSpore's public names (``from mindspore.common.dtype import *`` gives the same set, minus float8 types)
__all__ = [
    "Type", "QuantDtype", "TensorType", "Int",
    "bool_", "int8", "byte", "int16", "short", "int32", "intc", "int64", "long", "intp", "uint8", "ubyte", "uint16",
    "ushort", "uint32", "uintc", "uint64", "uintp", "float16", "half", "float32", "single", "float64", "double",
    "bfloat16", "complex64", "cfloat", "complex128", "cdouble", "number", "int_", "uint", "float_", "string",
    "list_", "tuple_", "type_none", "tensor_type",
    "pytype_to_dtype", "get_py_obj_dtype", "dtype_to_nptype", "dtype_to_pytype",
]


class Type:
    """A MindSpore data type.

    Instances are module-level singletons (``mstype.float32``...); compare them with ``==``.

    Example:
        >>> str(float32), repr(float32), float32.itemsize
        ('Float32', 'mindspore.float32', 4)
    """

    __slots__ = ("_name", "_attr", "_key", "_tf", "_np", "_kind", "_size")

    def _setup(self, name: str, attr: str, key: str, tf_dtype: tf.DType | None, np_dtype: Any, kind: str,
               size: builtins.int) -> "Type":
        self._name = name
        self._attr = attr
        self._key = key
        self._tf = tf_dtype
        self._np = None if np_dtype is None else np.dtype(np_dtype)
        self._kind = kind
        self._size = size
        return self

    def __str__(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"mindspore.{self._attr}"

    def __eq__(self, other: object) -> builtins.bool:
        if not isinstance(other, Type):
            return False
        if self._tf is not None or other._tf is not None:
            return self._tf == other._tf
        return type(self) is type(other) and self._name == other._name

    def __ne__(self, other: object) -> builtins.bool:
        return not self.__eq__(other)

    def __hash__(self) -> builtins.int:
        return hash(self._name)

    def __reduce__(self):
        return (_lookup, (self._key,))

    def __copy__(self) -> "Type":
        return self

    def __deepcopy__(self, memo: dict) -> "Type":
        return self

    @property
    def tf_dtype(self) -> tf.DType | None:
        """The TensorFlow dtype this type maps to (None for abstract types)."""
        return self._tf

    @property
    def np_dtype(self) -> np.dtype | None:
        """The numpy dtype this type maps to (None for abstract types)."""
        return self._np

    @property
    def is_floating_point(self) -> builtins.bool:
        """Whether this is a floating-point type."""
        return self._kind == "float"

    @property
    def is_complex(self) -> builtins.bool:
        """Whether this is a complex type."""
        return self._kind == "complex"

    @property
    def is_signed(self) -> builtins.bool:
        """Whether values of this type carry a sign."""
        return self._kind in ("int", "float", "complex")

    @property
    def itemsize(self) -> builtins.int:
        """The element size in bytes."""
        return self._size

    def to_complex(self) -> "Type":
        """The complex type with this type's precision (Float32 -> Complex64).

        Raises:
            TypeError: for a type that has no complex counterpart.
        """
        table = {"Float32": complex64, "BFloat16": complex64, "Float64": complex128, "Complex64": complex64,
                 "Complex128": complex128}
        if self._name not in table:
            raise TypeError(f"For 'Type.to_complex', the type {self} has no complex counterpart.")
        return table[self._name]

    def to_real(self) -> "Type":
        """The real type of a complex type (Complex64 -> Float32); other types return themselves."""
        return {"Complex64": float32, "Complex128": float64}.get(self._name, self)

    def to_tf(self) -> tf.DType:
        """Return the TensorFlow dtype.

        Raises:
            TypeError: for abstract types such as ``number`` or ``int_``.
        """
        if self._tf is None:
            raise TypeError(f"The dtype {self._name} is abstract and has no TensorFlow equivalent.")
        return self._tf


def _singleton_new(cls, bits: builtins.int | None = None):
    """``Int(32)`` returns ``int32`` and ``Int()`` returns ``int_``, as MindSpore's constructors do."""
    table = _BY_CLASS_BITS.get(cls)
    if table is None or bits not in table:
        raise TypeError(f"For '{cls.__name__}', the number of bits must be one of "
                        f"{sorted(b for b in (table or {}) if b is not None)}, but got {bits!r}.")
    return table[bits]


class Number(Type):
    """Numeric types (``mstype.number`` is the abstract one)."""

    __slots__ = ()
    __new__ = _singleton_new


class Bool(Number):
    """The boolean type (``mstype.bool_``)."""

    __slots__ = ()


class Int(Number):
    """Signed integer types; ``Int(32)`` is ``int32``, ``Int()`` the abstract ``int_``."""

    __slots__ = ()


class UInt(Number):
    """Unsigned integer types; ``UInt(8)`` is ``uint8``."""

    __slots__ = ()


class Float(Number):
    """IEEE floating-point types; ``Float(32)`` is ``float32``, ``Float()`` the abstract ``float_``."""

    __slots__ = ()


class BFloat(Number):
    """The bfloat16 type."""

    __slots__ = ()


class Complex(Number):
    """Complex types; ``Complex(64)`` is ``complex64``."""

    __slots__ = ()


class String(Type):
    """The string type."""

    __slots__ = ()


class List(Type):
    """The type of python lists."""

    __slots__ = ()


class Tuple(Type):
    """The type of python tuples."""

    __slots__ = ()


class TypeNone(Type):
    """The type of ``None``."""

    __slots__ = ()


class _MiscType(Type):
    """Function and type-of-type markers returned by :func:`get_py_obj_dtype`."""

    __slots__ = ()


class TensorType(Type):
    """The type of a Tensor whose elements have ``element_type`` (``Tensor[Float32]``).

    Args:
        element_type: the element type, or None for the abstract tensor type.

    Example:
        >>> TensorType(float32)
        mindspore.tensor[float32]
    """

    __slots__ = ("_element",)

    def __init__(self, element_type: Type | None = None) -> None:
        if element_type is None:
            self._setup("Tensor", "tensor", "tensor_type", None, None, "", 0)
        else:
            self._setup(f"Tensor[{element_type}]", f"tensor[{element_type._attr}]", "tensor_type", None, None, "", 0)
        self._element = element_type

    def __eq__(self, other: object) -> builtins.bool:
        return isinstance(other, TensorType) and self._element == other._element

    def __hash__(self) -> builtins.int:
        return hash(self._name)

    def __reduce__(self):
        return (TensorType, (self._element,))

    def element_type(self) -> Type | None:
        """The element type."""
        return self._element


def _mk(cls, name: str, attr: str, tfd: tf.DType | None = None, npd: Any = None, kind: str = "",
        size: builtins.int = 0, key: str | None = None) -> Type:
    obj = object.__new__(cls)
    return obj._setup(name, attr, key or attr, tfd, npd, kind, size)


bool_ = _mk(Bool, "Bool", "bool", tf.bool, np.bool_, "bool", 1, key="bool_")
int8 = _mk(Int, "Int8", "int8", tf.int8, np.int8, "int", 1)
int16 = _mk(Int, "Int16", "int16", tf.int16, np.int16, "int", 2)
int32 = _mk(Int, "Int32", "int32", tf.int32, np.int32, "int", 4)
int64 = _mk(Int, "Int64", "int64", tf.int64, np.int64, "int", 8)
uint8 = _mk(UInt, "UInt8", "uint8", tf.uint8, np.uint8, "uint", 1)
uint16 = _mk(UInt, "UInt16", "uint16", tf.uint16, np.uint16, "uint", 2)
uint32 = _mk(UInt, "UInt32", "uint32", tf.uint32, np.uint32, "uint", 4)
uint64 = _mk(UInt, "UInt64", "uint64", tf.uint64, np.uint64, "uint", 8)
float16 = _mk(Float, "Float16", "float16", tf.float16, np.float16, "float", 2)
float32 = _mk(Float, "Float32", "float32", tf.float32, np.float32, "float", 4)
float64 = _mk(Float, "Float64", "float64", tf.float64, np.float64, "float", 8)
bfloat16 = _mk(BFloat, "BFloat16", "bfloat16", tf.bfloat16, tf.bfloat16.as_numpy_dtype, "float", 2)
complex64 = _mk(Complex, "Complex64", "complex64", tf.complex64, np.complex64, "complex", 8)
complex128 = _mk(Complex, "Complex128", "complex128", tf.complex128, np.complex128, "complex", 16)
string = _mk(String, "String", "string_", tf.string, None, "string", 0, key="string")

number = _mk(Number, "Number", "number", size=1)
int_ = _mk(Int, "Int", "int", size=1, key="int_")
uint = _mk(UInt, "UInt", "uint", size=1)
float_ = _mk(Float, "Float", "float", size=1, key="float_")
list_ = _mk(List, "List", "list_")
tuple_ = _mk(Tuple, "Tuple", "tuple_")
type_none = _mk(TypeNone, "None", "type_none")
tensor_type = TensorType()
function = _mk(_MiscType, "Func", "function")
type_type = _mk(_MiscType, "TypeType", "type_type")

byte, short, intc, long, intp = int8, int16, int32, int64, int64
ubyte, ushort, uintc, uintp = uint8, uint16, uint32, uint64
half, single, double = float16, float32, float64
cfloat, cdouble = complex64, complex128
bool = bool_  # noqa: A001  (MindSpore exports this name; kept out of __all__)
int = int32  # noqa: A001
float = float32  # noqa: A001

number_type = (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16,
               complex64, complex128)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
signed_type = (int8, int16, int32, int64, float16, float32, float64, bfloat16, complex64, complex128)
complex_type = (complex64, complex128)
all_types = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16,
             complex64, complex128)

_BY_CLASS_BITS: dict = {
    Number: {None: number},
    Bool: {None: bool_, 8: bool_},
    Int: {None: int_, 8: int8, 16: int16, 32: int32, 64: int64},
    UInt: {None: uint, 8: uint8, 16: uint16, 32: uint32, 64: uint64},
    Float: {None: float_, 16: float16, 32: float32, 64: float64},
    BFloat: {None: bfloat16, 16: bfloat16},
    Complex: {64: complex64, 128: complex128},
}
_CONCRETE = all_types + (string,)
_BY_TF = {t._tf: t for t in _CONCRETE}
_BY_NP = {t._np: t for t in all_types}
_BY_KEY = {t._key: t for t in _CONCRETE + (number, int_, uint, float_, list_, tuple_, type_none, function,
                                            type_type)}
_BY_KEY["tensor_type"] = tensor_type
_NAMED_STR = {"bool": bool_, "bool_": bool_, "bfloat16": bfloat16}


def _lookup(key: str) -> Type:
    return _BY_KEY[key]


def from_tf_dtype(tf_dtype: Any) -> Type:
    """Return the MindSpore type of a TensorFlow dtype.

    Raises:
        TypeError: for a TensorFlow dtype MindSpore has no equivalent of.
    """
    try:
        return _BY_TF[tf_dtype]
    except (KeyError, TypeError):
        pass
    try:
        return _BY_TF[tf.as_dtype(tf_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"The TensorFlow dtype {tf_dtype!r} has no MindSpore equivalent.") from None


def from_np_dtype(np_dtype: Any) -> Type:
    """Return the MindSpore type of a numpy dtype.

    Raises:
        TypeError: for a numpy dtype MindSpore has no equivalent of.
    """
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"The numpy dtype {np_dtype!r} has no MindSpore equivalent.") from None


def as_ms_dtype(dtype: Any, api: str = "dtype", arg: str = "dtype") -> Type:
    """Normalise a dtype to a concrete MindSpore :class:`Type`.

    Accepts a MindSpore Type, a ``tf.DType``, a numpy dtype or scalar type, a dtype name
    (``'float32'``) and the python types ``bool`` (Bool), ``int`` (Int64) and ``float`` (Float32),
    as ``Tensor.astype`` does.

    Args:
        dtype: the value to convert.
        api: the API name used in error messages.
        arg: the argument name used in error messages.

    Returns:
        Type: the concrete MindSpore type.

    Raises:
        TypeError: naming ``api`` and ``arg`` when ``dtype`` is not a concrete data type.
    """
    if isinstance(dtype, Type):
        if dtype._tf is None:
            raise TypeError(f"For '{api}', the '{arg}' must be a concrete data type such as mindspore.float32, "
                            f"but got {dtype!r}.")
        return dtype
    if isinstance(dtype, tf.DType):
        return from_tf_dtype(dtype)
    if dtype is builtins.bool:
        return bool_
    if dtype is builtins.int:
        return int64
    if dtype is builtins.float:
        return float32
    if isinstance(dtype, str) and dtype in _NAMED_STR:
        return _NAMED_STR[dtype]
    if dtype is not None and not isinstance(dtype, (builtins.int, builtins.float, builtins.bool)):
        try:
            return from_np_dtype(dtype)
        except TypeError:
            pass
    raise TypeError(f"For '{api}', the '{arg}' must be a mindspore dtype such as mindspore.float32, but got "
                    f"{dtype!r} of type {type(dtype).__name__}.")


def as_tf_dtype(dtype: Any) -> tf.DType:
    """Return the TensorFlow dtype of a MindSpore type (or anything :func:`as_ms_dtype` takes)."""
    if isinstance(dtype, tf.DType):
        return dtype
    return as_ms_dtype(dtype).to_tf()


def is_float(dtype: Any) -> builtins.bool:
    """Whether ``dtype`` is a floating-point type."""
    return as_tf_dtype(dtype).is_floating


_SIMPLE_TYPES = {
    list: list_, tuple: tuple_, type(None): type_none, builtins.bool: bool_, builtins.int: int64,
    builtins.float: float64, complex: complex128, str: string, np.bool_: bool_, np.str_: string,
    np.int8: int8, np.int16: int16, np.int32: int32, np.int64: int64, np.uint8: uint8, np.uint16: uint16,
    np.uint32: uint32, np.uint64: uint64, np.float16: float16, np.float32: float32, np.float64: float64,
    np.complex64: complex64, np.complex128: complex128,
}


def pytype_to_dtype(obj: Any) -> Type:
    """Convert a python or numpy type to a MindSpore type.

    Args:
        obj: a python type (``bool``, ``int``, ``float``, ``complex``, ``str``, ``list``,
            ``tuple``, ``type(None)``), a numpy scalar type or dtype, or a MindSpore Type.

    Returns:
        Type: ``int`` gives Int64 and ``float`` gives Float64, as in MindSpore.

    Raises:
        TypeError: when ``obj`` is not a type.
        NotImplementedError: for a type with no MindSpore equivalent.

    Example:
        >>> pytype_to_dtype(bool)
        mindspore.bool
    """
    if isinstance(obj, np.dtype):
        obj = obj.type
    if isinstance(obj, Type):
        return obj
    if not isinstance(obj, type):
        raise TypeError("For 'pytype_to_dtype', the argument 'obj' must be a python type object, such as int, "
                        f"float, str, etc. But got type {type(obj)}.")
    if obj in _SIMPLE_TYPES:
        return _SIMPLE_TYPES[obj]
    if obj is tf.bfloat16.as_numpy_dtype:
        return bfloat16
    raise NotImplementedError(f"The python type {obj} cannot be converted to MindSpore type.")


def get_py_obj_dtype(obj: Any) -> Type:
    """Return the MindSpore type of a python object or type.

    Args:
        obj: a Tensor (gives ``TensorType(dtype)``), a Cell or function (gives ``function``), a
            MindSpore Type (gives ``type_type``), a python type, or a python value.

    Returns:
        Type: the MindSpore type.

    Raises:
        NotImplementedError: for an object whose type has no MindSpore equivalent.

    Example:
        >>> get_py_obj_dtype(1)
        mindspore.int64
    """
    if hasattr(obj, "shape") and isinstance(getattr(obj, "dtype", None), Type):
        return TensorType(obj.dtype)
    if hasattr(obj, "__primitive_flag__") or hasattr(obj, "construct") or inspect.isfunction(obj):
        return function
    if isinstance(obj, Type):
        return type_type
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    return pytype_to_dtype(type(obj))


_NP_OF = {t: t._np.type for t in all_types}


def dtype_to_nptype(type_: Type) -> type:
    """Return the numpy scalar type of a MindSpore type.

    Args:
        type_: a concrete MindSpore type.

    Returns:
        type: e.g. ``numpy.float32``; bfloat16 gives ml_dtypes' ``bfloat16``.

    Raises:
        KeyError: for an abstract type or a non-type.

    Example:
        >>> dtype_to_nptype(int8)
        <class 'numpy.int8'>
    """
    try:
        return _NP_OF[type_]
    except (KeyError, TypeError):
        raise KeyError(f"For 'dtype_to_nptype', the 'type_' must be a numeric or bool mindspore dtype, "
                       f"but got {type_!r}.") from None


_PY_OF = {bool_: builtins.bool, int_: builtins.int, int8: builtins.int, int16: builtins.int, int32: builtins.int,
          int64: builtins.int, uint8: builtins.int, uint16: builtins.int, uint32: builtins.int, uint64: builtins.int,
          float_: builtins.float, float16: builtins.float, float32: builtins.float, float64: builtins.float,
          bfloat16: builtins.float, list_: list, tuple_: tuple, string: str, complex64: complex, complex128: complex,
          type_none: type(None)}


def dtype_to_pytype(type_: Type) -> type:
    """Return the python type of a MindSpore type.

    Args:
        type_: a MindSpore type.

    Returns:
        type: ``bool``, ``int``, ``float``, ``complex``, ``str``, ``list``, ``tuple`` or ``NoneType``.

    Raises:
        KeyError: for a type with no python equivalent (``uint``, ``number``...).

    Example:
        >>> dtype_to_pytype(bool_)
        <class 'bool'>
    """
    try:
        return _PY_OF[type_]
    except (KeyError, TypeError):
        raise KeyError(f"For 'dtype_to_pytype', the 'type_' {type_!r} has no python type.") from None


def type_size_in_bytes(dtype: Type) -> builtins.int:
    """Return the element size of ``dtype`` in bytes (abstract types give MindSpore's values: 1 or 0).

    Raises:
        TypeError: when ``dtype`` is not a MindSpore Type.

    Example:
        >>> type_size_in_bytes(float16)
        2
    """
    if not isinstance(dtype, Type):
        raise TypeError(f"For 'type_size_in_bytes', the argument 'dtype' should be a mindspore Type, but got "
                        f"{dtype!r}.")
    return dtype._size


@enum.unique
class QuantDtype(enum.Enum):
    """Quantization data types (``INT1``..``INT16``, ``UINT1``..``UINT16``)."""

    INT1 = 0
    INT2 = 1
    INT3 = 2
    INT4 = 3
    INT5 = 4
    INT6 = 5
    INT7 = 6
    INT8 = 7
    INT9 = 8
    INT10 = 9
    INT11 = 10
    INT12 = 11
    INT13 = 12
    INT14 = 13
    INT15 = 14
    INT16 = 15
    UINT1 = 100
    UINT2 = 101
    UINT3 = 102
    UINT4 = 103
    UINT5 = 104
    UINT6 = 105
    UINT7 = 106
    UINT8 = 107
    UINT9 = 108
    UINT10 = 109
    UINT11 = 110
    UINT12 = 111
    UINT13 = 112
    UINT14 = 113
    UINT15 = 114
    UINT16 = 115

    def __str__(self) -> str:
        return f"{self.name}"

    def value(self) -> builtins.int:  # type: ignore[override]
        """The serialized value (``QuantDtype.INT8.value() == 7``)."""
        return self._value_
