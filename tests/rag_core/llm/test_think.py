"""The inline <think> splitter: tags cut across deltas, no tags, a missing opening tag."""

from __future__ import annotations

import pytest

from rag_core.llm.base import StreamDelta
from rag_core.llm.think import ThinkParser, split_think


def run(pieces: list[str], expect: bool = False) -> tuple[str, str, list[StreamDelta]]:
    """Feed ``pieces``; return the joined thinking, joined answer, and every delta."""
    parser = ThinkParser(expect_thinking=expect)
    deltas: list[StreamDelta] = []
    for piece in pieces:
        deltas.extend(parser.feed(piece))
    deltas.extend(parser.finish())
    thinking = "".join(d.text for d in deltas if d.kind == "thinking")
    answer = "".join(d.text for d in deltas if d.kind == "token")
    return thinking, answer, deltas


def test_whole_tags() -> None:
    thinking, answer, _ = run(["<think>weigh clause 5</think>\n\nClause 5 applies."])
    assert thinking == "weigh clause 5"
    assert answer == "Clause 5 applies."


@pytest.mark.parametrize("cut", range(1, len("<think>a</think>b")))
def test_tags_split_at_every_position(cut: int) -> None:
    text = "<think>a</think>b"
    thinking, answer, _ = run([text[:cut], text[cut:]])
    assert (thinking, answer) == ("a", "b")


def test_tags_split_one_char_at_a_time() -> None:
    text = "<think>思考：第五条</think>答案：可以解除。"
    thinking, answer, deltas = run(list(text))
    assert thinking == "思考：第五条"
    assert answer == "答案：可以解除。"
    assert all("<" not in d.text and ">" not in d.text for d in deltas)


def test_split_example_from_the_brief() -> None:
    thinking, answer, _ = run(["<thi", "nk>reason", "ing</thi", "nk>answer"])
    assert (thinking, answer) == ("reasoning", "answer")


def test_no_tags_is_all_answer() -> None:
    thinking, answer, deltas = run(["The term is ", "two years."])
    assert thinking == ""
    assert answer == "The term is two years."
    assert [d.kind for d in deltas] == ["token", "token"]


def test_answer_streams_without_waiting_for_the_end() -> None:
    parser = ThinkParser()
    assert parser.feed("Hello ") == [StreamDelta("token", "Hello ")]


def test_lone_angle_bracket_is_held_then_released() -> None:
    parser = ThinkParser()
    assert parser.feed("a <") == [StreamDelta("token", "a ")]
    assert parser.feed(" b") == [StreamDelta("token", "< b")]


def test_text_resembling_a_tag_is_kept() -> None:
    thinking, answer, _ = run(["x <thing> y <", "/thin y"])
    assert thinking == ""
    assert answer == "x <thing> y </thin y"


def test_missing_open_tag_when_thinking_expected() -> None:
    thinking, answer, deltas = run(["first I ", "check clause 3", "</th", "ink>", "Yes."], expect=True)
    assert thinking == "first I check clause 3"
    assert answer == "Yes."
    assert deltas[0].kind == "thinking"


def test_missing_open_tag_not_expected_keeps_text_as_answer() -> None:
    thinking, answer, _ = run(["first I check</think>Yes."])
    assert thinking == ""
    assert answer == "first I checkYes."


def test_expected_thinking_that_never_comes_is_resent_as_answer() -> None:
    parser = ThinkParser(expect_thinking=True)
    first = parser.feed("Just the answer.")
    assert [d.kind for d in first] == ["thinking"]
    tail = parser.finish()
    assert tail == [StreamDelta("token", "Just the answer.")]
    assert (parser.thinking, parser.answer) == ("", "Just the answer.")


def test_expected_thinking_with_explicit_open_tag() -> None:
    thinking, answer, _ = run(["<think>", "hmm", "</think>", "OK"], expect=True)
    assert (thinking, answer) == ("hmm", "OK")


def test_unclosed_explicit_thinking_stays_thinking() -> None:
    thinking, answer, _ = run(["<think>ran out of tok"])
    assert (thinking, answer) == ("ran out of tok", "")


def test_leading_whitespace_of_each_segment_dropped() -> None:
    thinking, answer, _ = run(["\n<think>\n", "\nx", "</think>", "\n\n", "  y"])
    assert (thinking, answer) == ("x", "y")


def test_split_think_helper() -> None:
    assert split_think("<think>a</think>b") == ("a", "b")
    assert split_think("plain") == ("", "plain")
    assert split_think("a</think>b", expect_thinking=True) == ("a", "b")


def test_feed_after_finish_is_an_error() -> None:
    parser = ThinkParser()
    parser.finish()
    with pytest.raises(RuntimeError):
        parser.feed("x")
