"""Shared definitions of ``mindspore.mindrecord``: the exception classes."""
