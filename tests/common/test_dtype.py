"""tfspore.common.dtype: names, printing, aliases and conversion helpers."""
import pickle

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore.common import dtype as mstype

# (attribute, str, repr, numpy type, python type, size in bytes)
CONCRETE = [
    ("bool_", "Bool", "mindspore.bool", np.bool_, bool, 1),
    ("int8", "Int8", "mindspore.int8", np.int8, int, 1),
    ("int16", "Int16", "mindspore.int16", np.int16, int, 2),
    ("int32", "Int32", "mindspore.int32", np.int32, int, 4),
    ("int64", "Int64", "mindspore.int64", np.int64, int, 8),
    ("uint8", "UInt8", "mindspore.uint8", np.uint8, int, 1),
    ("uint16", "UInt16", "mindspore.uint16", np.uint16, int, 2),
    ("uint32", "UInt32", "mindspore.uint32", np.uint32, int, 4),
    ("uint64", "UInt64", "mindspore.uint64", np.uint64, int, 8),
    ("float16", "Float16", "mindspore.float16", np.float16, float, 2),
    ("float32", "Float32", "mindspore.float32", np.float32, float, 4),
    ("float64", "Float64", "mindspore.float64", np.float64, float, 8),
    ("complex64", "Complex64", "mindspore.complex64", np.complex64, complex, 8),
    ("complex128", "Complex128", "mindspore.complex128", np.complex128, complex, 16),
]


@pytest.mark.parametrize("attr,name,rep,np_type,py_type,size", CONCRETE)
def test_concrete_types(attr, name, rep, np_type, py_type, size):
    t = getattr(mstype, attr)
    assert str(t) == name and repr(t) == rep
    assert mstype.dtype_to_nptype(t) is np_type
    assert mstype.dtype_to_pytype(t) is py_type
    assert mstype.type_size_in_bytes(t) == size == t.itemsize
    assert mstype.pytype_to_dtype(np_type) == t
    assert getattr(ms, attr) is t
    assert pickle.loads(pickle.dumps(t)) is t


def test_bfloat16():
    assert str(mstype.bfloat16) == "BFloat16" and repr(mstype.bfloat16) == "mindspore.bfloat16"
    assert mstype.type_size_in_bytes(mstype.bfloat16) == 2
    assert mstype.dtype_to_pytype(mstype.bfloat16) is float
    assert mstype.dtype_to_nptype(mstype.bfloat16) is tf.bfloat16.as_numpy_dtype
    assert mstype.bfloat16.tf_dtype == tf.bfloat16


def test_aliases():
    assert mstype.half is mstype.float16 and mstype.single is mstype.float32 and mstype.double is mstype.float64
    assert mstype.byte is mstype.int8 and mstype.short is mstype.int16 and mstype.intc is mstype.int32
    assert mstype.long is mstype.int64 and mstype.intp is mstype.int64
    assert mstype.ubyte is mstype.uint8 and mstype.ushort is mstype.uint16 and mstype.uintc is mstype.uint32
    assert mstype.uintp is mstype.uint64 and mstype.cfloat is mstype.complex64 and mstype.cdouble is mstype.complex128
    # MindSpore's module-level bool/int/float names (not exported by *)
    assert mstype.bool is mstype.bool_ and mstype.int is mstype.int32 and mstype.float is mstype.float32
    assert ms.float32 == mstype.float32 and ms.int_ is mstype.int_


@pytest.mark.parametrize("attr,name,rep,size", [
    ("int_", "Int", "mindspore.int", 1), ("uint", "UInt", "mindspore.uint", 1), ("float_", "Float", "mindspore.float", 1),
    ("number", "Number", "mindspore.number", 1), ("list_", "List", "mindspore.list_", 0),
    ("tuple_", "Tuple", "mindspore.tuple_", 0), ("string", "String", "mindspore.string_", 0),
    ("tensor_type", "Tensor", "mindspore.tensor", 0), ("type_none", "None", "mindspore.type_none", 0)])
def test_abstract_types(attr, name, rep, size):
    t = getattr(mstype, attr)
    assert str(t) == name and repr(t) == rep and mstype.type_size_in_bytes(t) == size
    with pytest.raises(KeyError):
        mstype.dtype_to_nptype(t)


def test_type_properties_and_hierarchy():
    f = mstype.float32
    assert f.is_floating_point and not f.is_complex and f.is_signed and f.itemsize == 4
    assert not mstype.uint8.is_signed and not mstype.bool_.is_signed and mstype.int8.is_signed
    assert f.to_complex() is mstype.complex64 and mstype.complex128.to_real() is mstype.float64
    with pytest.raises(TypeError):
        mstype.int8.to_complex()
    assert isinstance(mstype.int32, mstype.Int) and not isinstance(mstype.uint8, mstype.Int)
    assert isinstance(mstype.float16, mstype.Float) and isinstance(mstype.float16, mstype.Number)
    assert type(mstype.bool_).__name__ == "Bool" and type(mstype.bfloat16).__name__ == "BFloat"
    assert mstype.Int(32) is mstype.int32 and mstype.Float(16) is mstype.float16 and mstype.Int() is mstype.int_
    with pytest.raises(TypeError):
        mstype.Int(7)


def test_equality():
    assert mstype.float32 == mstype.single and hash(mstype.float32) == hash(mstype.single)
    assert mstype.float32 != mstype.float16
    assert (mstype.float32 == np.float32) is False and (mstype.float32 == "Float32") is False
    assert mstype.int_ != mstype.int32 and mstype.float_ != mstype.float32
    assert mstype.float32 in mstype.float_type and mstype.int64 in mstype.int_type


def test_pytype_to_dtype():
    assert mstype.pytype_to_dtype(bool) is mstype.bool_
    assert mstype.pytype_to_dtype(int) is mstype.int64
    assert mstype.pytype_to_dtype(float) is mstype.float64
    assert mstype.pytype_to_dtype(complex) is mstype.complex128
    assert mstype.pytype_to_dtype(str) is mstype.string
    assert mstype.pytype_to_dtype(list) is mstype.list_ and mstype.pytype_to_dtype(tuple) is mstype.tuple_
    assert mstype.pytype_to_dtype(type(None)) is mstype.type_none
    assert mstype.pytype_to_dtype(np.dtype("float16")) is mstype.float16
    assert mstype.pytype_to_dtype(mstype.float32) is mstype.float32
    with pytest.raises(TypeError, match="pytype_to_dtype"):
        mstype.pytype_to_dtype("x")
    with pytest.raises(NotImplementedError):
        mstype.pytype_to_dtype(dict)


def test_get_py_obj_dtype():
    assert mstype.get_py_obj_dtype(1) is mstype.int64
    assert mstype.get_py_obj_dtype(1.0) is mstype.float64
    assert mstype.get_py_obj_dtype(True) is mstype.bool_
    assert mstype.get_py_obj_dtype("s") is mstype.string
    assert mstype.get_py_obj_dtype([1]) is mstype.list_ and mstype.get_py_obj_dtype(None) is mstype.type_none
    assert mstype.get_py_obj_dtype(np.float32(1)) is mstype.float32
    assert mstype.get_py_obj_dtype(float) is mstype.float64
    tt = mstype.get_py_obj_dtype(ms.Tensor([1.0]))
    assert str(tt) == "Tensor[Float32]" and repr(tt) == "mindspore.tensor[float32]"
    assert tt == mstype.TensorType(mstype.float32) and tt.element_type() is mstype.float32
    assert str(mstype.get_py_obj_dtype(lambda: 1)) == "Func"
    assert str(mstype.get_py_obj_dtype(ms.nn.Cell())) == "Func"
    assert repr(mstype.get_py_obj_dtype(mstype.float32)) == "mindspore.type_type"
    with pytest.raises(NotImplementedError):
        mstype.get_py_obj_dtype(np.array([1]))


def test_dtype_to_pytype_abstract():
    assert mstype.dtype_to_pytype(mstype.int_) is int and mstype.dtype_to_pytype(mstype.float_) is float
    assert mstype.dtype_to_pytype(mstype.list_) is list and mstype.dtype_to_pytype(mstype.type_none) is type(None)
    with pytest.raises(KeyError):
        mstype.dtype_to_pytype(mstype.uint)


def test_type_size_in_bytes_rejects_non_types():
    with pytest.raises(TypeError, match="type_size_in_bytes"):
        mstype.type_size_in_bytes(np.float32)


def test_conversions():
    assert mstype.as_ms_dtype(np.float16) is mstype.float16
    assert mstype.as_ms_dtype("float32") is mstype.float32 and mstype.as_ms_dtype("bool") is mstype.bool_
    assert mstype.as_ms_dtype(int) is mstype.int64 and mstype.as_ms_dtype(float) is mstype.float32
    assert mstype.as_ms_dtype(tf.int8) is mstype.int8
    assert mstype.from_tf_dtype(tf.bfloat16) is mstype.bfloat16 and mstype.as_tf_dtype(mstype.uint16) == tf.uint16
    with pytest.raises(TypeError, match="'Tensor.astype', the 'dtype'"):
        mstype.as_ms_dtype(mstype.number, "Tensor.astype", "dtype")
    with pytest.raises(TypeError, match="got 'nope'"):
        mstype.as_ms_dtype("nope")


def test_quant_dtype():
    assert mstype.QuantDtype.INT8.value() == 7 and str(mstype.QuantDtype.UINT16) == "UINT16"
