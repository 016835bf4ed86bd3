from __future__ import annotations

from rag_core.llm.jsonparse import parse_json_object, parse_json_value


def test_fenced_object_with_prose() -> None:
    assert parse_json_object('Sure:\n```json\n{"a": 1}\n```\nDone.') == {"a": 1}


def test_partial_object_is_closed() -> None:
    assert parse_json_object('{"a": [1, 2, {"b": "x') == {"a": [1, 2, {"b": "x"}]}
    assert parse_json_object('{"a":') == {"a": None}


def test_array_of_objects_is_read_as_array() -> None:
    assert parse_json_value('[{"a":1},{"a":2}]') == [{"a": 1}, {"a": 2}]
    assert parse_json_value('Here: [{"q": 1}] trailing') == [{"q": 1}]


def test_object_containing_array() -> None:
    assert parse_json_object('{"items": [1, 2]} and more') == {"items": [1, 2]}


def test_nothing_recoverable() -> None:
    assert parse_json_object("no json here") is None
    assert parse_json_object("[1, 2]") is None
