"""Split inline ``<think>…</think>`` reasoning from the answer, incrementally.

Why a streaming parser: reasoning models and our prompted local model write their reasoning inline.
The UI shows it in a separate, collapsible pane while tokens arrive, so the split has to work on
deltas, where a tag can be cut anywhere (``"<thi"`` + ``"nk>"``). Some templates put ``<think>``
into the prompt, so the model only ever emits ``</think>``; callers that asked for thinking say so
with ``expect_thinking`` and text before the first ``</think>`` is then reasoning.

Pure: no I/O, no model, so it is unit-tested on its own.
"""

from __future__ import annotations

from typing import Literal

from rag_core.llm.base import StreamDelta

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"
_TAGS = (OPEN_TAG, CLOSE_TAG)

Channel = Literal["thinking", "token"]


def _partial_tag_suffix(text: str) -> int:
    """Length of the longest tail of ``text`` that could be the start of a tag.

    Why: that tail must be held back until the next delta shows whether it is a tag.
    """
    best = 0
    for tag in _TAGS:
        for n in range(min(len(tag) - 1, len(text)), 0, -1):
            if text.endswith(tag[:n]):
                best = max(best, n)
                break
    return best


def _first_tag(text: str) -> tuple[int, str]:
    """Position and text of the earliest tag in ``text``, or ``(-1, "")``."""
    hits = [(text.find(tag), tag) for tag in _TAGS]
    found = [(i, tag) for i, tag in hits if i >= 0]
    return min(found) if found else (-1, "")


class ThinkParser:
    """Feed deltas, get ``StreamDelta``s on the "thinking" and "token" channels.

    ``expect_thinking``: the model was asked to reason first, so output before the first
    ``</think>`` is thinking even without ``<think>``. If such a stream ends with no tag at all, the
    model did not reason after all: ``finish`` re-sends the whole text as answer so the lawyer is
    never left without one (a stream consumer then replaces the shown thinking by that answer).
    """

    def __init__(self, expect_thinking: bool = False) -> None:
        self.expect_thinking = expect_thinking
        self._mode: Channel = "thinking" if expect_thinking else "token"
        self._pending = ""
        self._thinking: list[str] = []
        self._answer: list[str] = []
        self._segment_started = False  # strip whitespace at the start of each channel segment
        self.saw_open = False
        self.saw_close = False
        self._finished = False

    @property
    def thinking(self) -> str:
        """All reasoning text so far (final after ``finish``)."""
        return "".join(self._thinking).strip()

    @property
    def answer(self) -> str:
        """All answer text so far (final after ``finish``)."""
        return "".join(self._answer).strip()

    def feed(self, text: str) -> list[StreamDelta]:
        """Consume one delta; return what can safely be emitted now."""
        if self._finished:
            raise RuntimeError("ThinkParser.feed after finish")
        self._pending += text
        out: list[StreamDelta] = []
        while True:
            pos, tag = _first_tag(self._pending)
            if pos < 0:
                break
            self._emit(self._pending[:pos], out)
            self._pending = self._pending[pos + len(tag) :]
            self._switch(tag)
        keep = _partial_tag_suffix(self._pending)
        cut = len(self._pending) - keep
        self._emit(self._pending[:cut], out)
        self._pending = self._pending[cut:]
        return out

    def finish(self) -> list[StreamDelta]:
        """Flush held-back text; apply the "expected thinking never came" rule."""
        if self._finished:
            return []
        out: list[StreamDelta] = []
        self._emit(self._pending, out)
        self._pending = ""
        self._finished = True
        if self.expect_thinking and not self.saw_open and not self.saw_close:
            text = "".join(self._thinking).strip()
            self._thinking = []
            if text:
                self._answer = [text]
                out.append(StreamDelta("token", text))
        return out

    def _switch(self, tag: str) -> None:
        """Change channel on a tag; a stray tag for the current channel is just dropped."""
        if tag == OPEN_TAG:
            self.saw_open = True
            new: Channel = "thinking"
        else:
            self.saw_close = True
            new = "token"
        if new != self._mode:
            self._mode = new
            self._segment_started = False

    def _emit(self, text: str, out: list[StreamDelta]) -> None:
        """Append ``text`` to the current channel, dropping leading whitespace of a segment."""
        if not self._segment_started:
            text = text.lstrip()
            if not text:
                return
            self._segment_started = True
        if not text:
            return
        (self._thinking if self._mode == "thinking" else self._answer).append(text)
        if out and out[-1].kind == self._mode:
            out[-1] = StreamDelta(self._mode, out[-1].text + text)
        else:
            out.append(StreamDelta(self._mode, text))


def split_think(text: str, expect_thinking: bool = False) -> tuple[str, str]:
    """``(thinking, answer)`` of a whole completion, by the same rules as the stream parser."""
    parser = ThinkParser(expect_thinking=expect_thinking)
    parser.feed(text)
    parser.finish()
    return parser.thinking, parser.answer
