"""MindPage: categories of an index field and paged reads."""
import json

import pytest

from tfspore.mindrecord import FileWriter, MindPage, MRMDefineCategoryError, ParamTypeError, ParamValueError


@pytest.fixture()
def pages(tmp_path):
    writer = FileWriter(str(tmp_path / "p.mindrecord"))
    writer.add_schema({"label": {"type": "int64"}, "name": {"type": "string"}, "img": {"type": "bytes"}}, "p")
    writer.write_raw_data([{"label": i % 3, "name": f"n{i % 2}", "img": bytes([i])} for i in range(7)])
    writer.commit()
    return MindPage(str(tmp_path / "p.mindrecord"))


def test_categories_and_pages(pages):
    assert pages.candidate_fields == ["label", "name"]
    pages.category_field = "label"
    info = json.loads(pages.read_category_info())
    assert info == {"categories": [{"count": 3, "id": 0, "name": "0"}, {"count": 2, "id": 1, "name": "1"},
                                   {"count": 2, "id": 2, "name": "2"}], "key": "label_0"}
    assert [r["img"] for r in pages.read_at_page_by_id(0, 0, 2)] == [b"\x00", b"\x03"]
    assert [r["img"] for r in pages.read_at_page_by_id(0, 1, 2)] == [b"\x06"]
    pages.category_field = "name"
    assert [r["label"] for r in pages.read_at_page_by_name("n1", 0, 10)] == [1, 0, 2]


def test_errors(pages):
    with pytest.raises(RuntimeError, match="set category_field"):
        pages.read_category_info()
    with pytest.raises(MRMDefineCategoryError, match="'img' is not a candidate"):
        pages.category_field = "img"
    with pytest.raises(ParamTypeError):
        pages.category_field = 3
    pages.category_field = "label"
    with pytest.raises(ParamValueError, match="Category id should be int"):
        pages.read_at_page_by_id(-1, 0, 1)
    with pytest.raises(ParamValueError, match="num_row should be int and greater than 0"):
        pages.read_at_page_by_id(0, 0, 0)
    with pytest.raises(RuntimeError, match="page no: 5 or page size: 2 is invalid"):
        pages.read_at_page_by_id(0, 5, 2)
    with pytest.raises(RuntimeError, match="category_id: 9"):
        pages.read_at_page_by_id(9, 0, 1)
    with pytest.raises(RuntimeError, match="category_name: zz could not found"):
        pages.read_at_page_by_name("zz", 0, 1)
