"""``mindspore.numpy`` dtype names and constants (the MindSpore dtypes under numpy's names)."""
from tfspore.common.dtype import (bool_, float16, float32, float64, int8, int16, int32, int64, uint8, uint16,
                                  uint32, uint64)

__all__ = ["int_", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float_",
           "float16", "float32", "float64", "bool_", "inf", "nan", "pi", "PINF", "NINF", "numeric_types"]

inf = float("inf")
PINF = float("inf")
NINF = float("-inf")
nan = float("nan")
pi = 3.141592653589793

int_ = int32
uint = uint32
float_ = float32

numeric_types = ["int_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float_",
                 "float16", "float32", "float64", "bool_"]
