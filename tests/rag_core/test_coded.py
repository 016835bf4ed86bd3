"""Coded text: still the English string, carries its code through joins, copies and pickling."""

from __future__ import annotations

import copy
import pickle

from rag_core.coded import CodedText, code_of, coded, join, record


def test_coded_text_is_its_english_string() -> None:
    c = coded("rel_terms", "covers 2/8 query terms", hit=2, total=8)
    assert c == "covers 2/8 query terms" and isinstance(c, str)
    assert code_of(c) == ("rel_terms", {"hit": 2, "total": 8})
    assert code_of("plain") == ("", {})


def test_copies_and_pickles_keep_the_code() -> None:
    c = coded("con_none", "no value contradicts", x=1.5)
    for other in (copy.deepcopy(c), pickle.loads(pickle.dumps(c))):
        assert isinstance(other, CodedText) and other.code == "con_none" and other.params == {"x": 1.5}


def test_join_merges_codes_and_params_only_when_every_part_is_coded() -> None:
    a = coded("a", "first", p=1)
    b = coded("b", "second", q="x")
    both = join([a, b])
    assert both == "first; second" and both.code == "a+b" and both.params == {"p": 1, "q": "x"}
    mixed = join([a, "uncoded"])
    assert mixed == "first; uncoded" and mixed.code == ""
    assert record(mixed) == {"text": "first; uncoded", "code": "", "params": {}}
    assert record(b) == {"text": "second", "code": "b", "params": {"q": "x"}}


def test_the_typed_trace_keeps_note_codes_through_json() -> None:
    import json

    from rag_core.trace import QueryRecord, Trace

    trace = Trace(notes=(coded("query_joined", "joined earlier user questions"), "plain"),
                  query=QueryRecord("q", notes=(coded("a", "first", n=1),)))  # fmt: skip
    stored = json.loads(json.dumps(trace.to_json()))
    assert stored["notes"] == ["joined earlier user questions", "plain"]  # the English shape stays
    back = Trace.from_json(stored)
    assert [code_of(n) for n in back.notes] == [("query_joined", {}), ("", {})]
    assert back.query is not None and code_of(back.query.notes[0]) == ("a", {"n": 1})
    assert Trace.from_json({"notes": ["old trace"]}).notes == ("old trace",)
