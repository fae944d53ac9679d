"""``mindspore.mindrecord.CsvToMR``: a CSV file to MindRecord (reads it with pandas)."""
from __future__ import annotations

import os
from importlib import import_module
from typing import Any, Dict, Iterator, List, Optional

from tfspore.mindrecord.core.shardutils import SUCCESS, check_filename
from tfspore.mindrecord.filewriter import FileWriter
from tfspore.mindrecord.tools._convert import check_partition_number, write_large_file

__all__ = ["CsvToMR"]

# pandas column dtype -> MindRecord type (anything else is stored as a string)
_TYPES = {"int64": "int64", "float64": "float64", "bool": "int32"}


class CsvToMR:
    """Convert a CSV file to MindRecord: one sample per row, one field per column (int64 and
    float64 columns as such, bool columns as int32, the others as strings), every field an
    index field.

    Args:
        source: The CSV file (its first line names the columns).
        destination: The MindRecord file to write.
        columns_list: The columns to keep, or None for all.
        partition_number: The number of shards. Default: 1.

    Raises:
        ValueError: If an argument is invalid.
        ImportError: If pandas is not installed.

    Example:
        >>> from tfspore.mindrecord import CsvToMR
        >>> CsvToMR("/path/to/data.csv", "/path/to/csv.mindrecord").transform()  # doctest: +SKIP
    """

    def __init__(self, source: str, destination: str, columns_list: Optional[List[str]] = None,
                 partition_number: int = 1) -> None:
        self.pd = import_module("pandas")
        if not isinstance(source, str):
            raise ValueError("The parameter source must be str.")
        check_filename(source)
        if columns_list and (not isinstance(columns_list, list)
                             or not all(isinstance(col, str) for col in columns_list)):
            raise ValueError("The parameter columns_list must be list of str.")
        if not isinstance(destination, str):
            raise ValueError("The parameter destination must be str.")
        check_filename(destination)
        self.source = source
        self.destination = destination
        self.columns_list = columns_list
        self.partition_number = check_partition_number(partition_number)
        self.writer = FileWriter(self.destination, self.partition_number)

    def _schema(self, frame: Any) -> Dict[str, dict]:
        if self.columns_list:
            for col in self.columns_list:
                if col not in frame.columns:
                    raise RuntimeError(f"The parameter columns_list is illegal, column {col} does not exist.")
        else:
            self.columns_list = list(frame.columns)
        schema = {col: {"type": _TYPES.get(str(frame[col].dtype), "string")} for col in self.columns_list}
        if not schema:
            raise RuntimeError("Failed to generate schema from csv file.")
        return schema

    def _rows(self, frame: Any) -> Iterator[dict]:
        # Rows as pandas' iterrows gives them (a row of numbers only comes as one common dtype),
        # which decides which rows FileWriter's schema check keeps, as in MindSpore.
        bools = {col for col in self.columns_list if str(frame[col].dtype) == "bool"}
        for _, row in frame.iterrows():
            yield {col: int(row[col]) if col in bools else row[col] for col in self.columns_list}

    def run(self) -> int:
        """Convert; returns SUCCESS. See :meth:`transform`."""
        if not os.path.exists(self.source):
            raise IOError(f"Csv file {self.source} do not exist.")
        frame = self.pd.read_csv(self.source)
        schema = self._schema(frame)
        for name in self.columns_list:
            if str(name).isdigit():
                raise ValueError(f"The first line content: {name} of the CSV file is used as a column name and "
                                 f"does not allow starting with a number.")
        write_large_file(self.writer, schema, "csv_schema", list(self.columns_list), self._rows(frame))
        return SUCCESS

    def transform(self) -> None:
        """Convert the CSV file to MindRecord.

        Raises:
            IOError: If the CSV file does not exist.
            RuntimeError: If a column of `columns_list` is missing.
            ValueError: If a column name is a number.
        """
        self.run()
