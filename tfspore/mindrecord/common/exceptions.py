"""MindRecord's exception classes (``mindspore.mindrecord.common.exceptions``).

Each class carries MindSpore's base message and error number; ``str(err)`` is
``"[ClassName]: message"`` as in MindSpore.

Example:
    >>> from tfspore.mindrecord import ParamTypeError
    >>> str(ParamTypeError("raw_data", "list"))
    "[ParamTypeError]: Invalid parameter type. 'raw_data' expect list type."
"""
from __future__ import annotations

__all__ = ["MindRecordException", "UnknownError", "ParamValueError", "ParamTypeError", "ParamMissError",
           "PathNotExistsError", "DbConnectionError", "MRMOpenError", "MRMOpenForAppendError",
           "MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError", "MRMSetHeaderError", "MRMWriteDatasetError",
           "MRMCommitError", "MRMLaunchError", "MRMFinishError", "MRMCloseError", "MRMAddSchemaError",
           "MRMAddIndexError", "MRMBuildSchemaError", "MRMGetMetaError", "MRMIndexGeneratorError",
           "MRMGenerateIndexError", "MRMInitSegmentError", "MRMFetchCandidateFieldsError",
           "MRMReadCategoryInfoError", "MRMFetchDataError", "MRMInvalidSchemaError", "MRMValidateDataError",
           "MRMDefineIndexError", "MRMDefineBlobError", "MRMUnsupportedSchemaError", "MRMDefineCategoryError"]

# class name -> (number, base message), as MindSpore numbers them.
EXCEPTIONS = {
    "UnknownError": (0, "Unknown Error."),
    "ParamTypeError": (1, "Param type is error."),
    "ParamValueError": (2, "Param value is error."),
    "ParamMissError": (3, "Param missing."),
    "PathNotExistsError": (4, "Path does not exist."),
    "DbConnectionError": (5, "Db connection is error."),
    "MRMOpenError": (100, "MindRecord could not open."),
    "MRMOpenForAppendError": (101, "MindRecord could not open for append."),
    "MRMInvalidPageSizeError": (102, "Failed to set page size."),
    "MRMInvalidHeaderSizeError": (103, "Failed to set header size."),
    "MRMSetHeaderError": (104, "Failed to set header."),
    "MRMWriteDatasetError": (105, "Failed to write dataset."),
    "MRMCommitError": (107, "Failed to commit."),
    "MRMLaunchError": (108, "Failed to launch."),
    "MRMFinishError": (109, "Failed to finish."),
    "MRMCloseError": (110, "Failed to close."),
    "MRMAddSchemaError": (111, "Failed to add schema."),
    "MRMAddIndexError": (112, "Failed to add index field."),
    "MRMBuildSchemaError": (113, "Failed to build schema."),
    "MRMGetMetaError": (114, "Failed to get meta info."),
    "MRMIndexGeneratorError": (115, "Failed to create index generator."),
    "MRMGenerateIndexError": (116, "Failed to generate index."),
    "MRMInitSegmentError": (117, "Failed to initialize segment."),
    "MRMFetchCandidateFieldsError": (118, "Failed to fetch candidate category fields."),
    "MRMReadCategoryInfoError": (119, "Failed to read category information."),
    "MRMFetchDataError": (120, "Failed to fetch data by category."),
    "MRMInvalidSchemaError": (200, "Schema is error."),
    "MRMValidateDataError": (201, "Raw data is valid."),
    "MRMDefineIndexError": (202, "Index field is error."),
    "MRMDefineBlobError": (203, "Blob field is error."),
    "MRMUnsupportedSchemaError": (204, "Schema is not supported."),
    "MRMDefineCategoryError": (205, "Category field is error."),
}


class MindRecordException(Exception):
    """Base class of MindRecord errors.

    Args:
        error_detail: A message replacing the class's base message (optional).
    """

    def __init__(self, error_detail: str = "") -> None:
        super().__init__()
        number, message = EXCEPTIONS.get(type(self).__name__, EXCEPTIONS["UnknownError"])
        self._error_msg = error_detail or message
        # The GE error code: host runtime (1), error-code type (1), common level (0),
        # MindRecord's system id (42), module (hundreds of the number + 1), number.
        self._error_code = ((1 << 30) | (1 << 28) | (42 << 17) | ((number // 100 + 1) << 12)
                            | (number & 0x0FFF))

    def __str__(self) -> str:
        return f"[{type(self).__name__}]: {self._error_msg}"

    @property
    def error_msg(self) -> str:
        """The message of the error."""
        return self._error_msg

    @error_msg.setter
    def error_msg(self, msg: str) -> None:
        self._error_msg = msg

    @property
    def error_code(self) -> int:
        """The numeric error code."""
        return self._error_code


class UnknownError(MindRecordException):
    """An unknown error."""


class ParamValueError(MindRecordException):
    """A parameter has an invalid value."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Invalid parameter value. {error_detail}")


class ParamTypeError(MindRecordException):
    """A parameter has an invalid type."""

    def __init__(self, param_name: str, expected_type: str) -> None:
        super().__init__(f"Invalid parameter type. '{param_name}' expect {expected_type} type.")


class ParamMissError(MindRecordException):
    """A parameter is missing."""

    def __init__(self, param_name: str) -> None:
        super().__init__(f"Param missing. '{param_name}' is required.")


class PathNotExistsError(MindRecordException):
    """A path does not exist."""

    def __init__(self, error_path: str) -> None:
        super().__init__(f"Path does not exist. {error_path}")


class DbConnectionError(MindRecordException):
    """The index database cannot be opened."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Db connection is error. Detail: {error_detail}")


def _simple(name: str) -> type:
    return type(name, (MindRecordException,), {"__doc__": EXCEPTIONS[name][1]})


MRMOpenError = _simple("MRMOpenError")
MRMOpenForAppendError = _simple("MRMOpenForAppendError")
MRMInvalidPageSizeError = _simple("MRMInvalidPageSizeError")
MRMInvalidHeaderSizeError = _simple("MRMInvalidHeaderSizeError")
MRMSetHeaderError = _simple("MRMSetHeaderError")
MRMWriteDatasetError = _simple("MRMWriteDatasetError")
MRMCommitError = _simple("MRMCommitError")
MRMLaunchError = _simple("MRMLaunchError")
MRMFinishError = _simple("MRMFinishError")
MRMCloseError = _simple("MRMCloseError")
MRMAddSchemaError = _simple("MRMAddSchemaError")
MRMAddIndexError = _simple("MRMAddIndexError")
MRMBuildSchemaError = _simple("MRMBuildSchemaError")
MRMGetMetaError = _simple("MRMGetMetaError")
MRMIndexGeneratorError = _simple("MRMIndexGeneratorError")
MRMGenerateIndexError = _simple("MRMGenerateIndexError")
MRMInitSegmentError = _simple("MRMInitSegmentError")
MRMFetchCandidateFieldsError = _simple("MRMFetchCandidateFieldsError")
MRMReadCategoryInfoError = _simple("MRMReadCategoryInfoError")
MRMFetchDataError = _simple("MRMFetchDataError")
MRMInvalidSchemaError = _simple("MRMInvalidSchemaError")
MRMValidateDataError = _simple("MRMValidateDataError")
MRMDefineIndexError = _simple("MRMDefineIndexError")
MRMDefineBlobError = _simple("MRMDefineBlobError")
MRMUnsupportedSchemaError = _simple("MRMUnsupportedSchemaError")
MRMDefineCategoryError = _simple("MRMDefineCategoryError")
