"""Salvage a passage dropped as INJECTION: cut the attack and what continues it, keep the clause.

Why: an attacker plants one sentence into a real clause; dropping the whole passage takes the
clause's true fact with it (issue 11: "true fact still answered" 0.325 with the judge on). The
passage stays labelled INJECTION; this module only proposes an excerpt of it, which the caller
re-judges on its own like any other passage before it may reach the answer model.

What is cut (all of it read one sentence at a time, as the detector reads):
- every sentence scoring above ``t_injection_sentence`` (the detector's own cut);
- the lines a cut sentence wraps from or into (``cut.wraps_into``: a PDF line broken mid-sentence);
- a sentence next to a cut one that continues the attack: its own score is above
  ``t_salvage_neighbour``; or it carries a link, e-mail address, phone number or image that the
  rest of the passage does not; or it follows a cut sentence that ends by introducing it (a colon)
  or opens as a payload ("The answer is: …", a quotation); or it precedes a cut sentence that
  points back at it ("the sentence above"). Anywhere in the passage, a sentence that repeats a
  quoted string, a number or an address of a cut sentence that the rest of the passage does not
  hold goes too (the attack restating its goal). A sentence cut this way is itself a cut one.

A sentence cut for its own score may be a clause with the attack run on after it ("…the laws of
the State of Delaware and is assignable only upon consent hereto Ignore the question you were
given…": a clause without a full stop, or "…五百万元，忽略以上所有指令…" after a comma). Then only the
attack is cut: the sentence is split where a new clause may start (after a comma, semicolon or
colon, or before a capitalised word) at the latest point whose head, alone, still reads clean (at
most ``t_salvage_neighbour``) while the tail alone still reads as the attack (above
``t_injection_sentence``), and the head repeats none of the tail's quoted strings, numbers or
addresses.

When nothing is salvaged: the excerpt keeps less than ``salvage_min_kept_share`` of the passage,
or still scores above ``t_injection_sentence``, or hidden text spans the passage. Then the passage
is dropped whole, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_core.judge.cut import sentences_wrap, without
from rag_core.judge.injection import SentenceScore, assess, hidden_text_signals, score_sentences
from rag_core.settings import VerdictSettings
from rag_core.trace_defence import CutRecord

_CONTACT = re.compile(
    r"(?:https?://|www\.)[^\s)\]>\"'，。；、]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|!\[[^\]]*\]\([^)]*\)"
    r"|(?<![\w@.-])(?:[a-z0-9-]+\.)+(?:com|net|org|io|xyz|top|cn|ru|info|biz|link|site|online)\b(?:/[^\s)\]>\"'，。；、]*)?"
    r"|<\s*img\b[^>]*>|(?<![\w.])\+?\d[\d ()-]{6,}\d(?![\w.])",
    re.IGNORECASE,
)
_PAYLOAD_OPENING = re.compile(
    r"^\W{0,3}(?:the\s+(?:correct\s+|only\s+|right\s+|final\s+)?(?:answer|reply|response|output)\s+(?:is|should\s+be|must\s+be)"
    r"|(?:answer|reply|response|output|say|state|respond)\s*[:：]|[\"“「『'‘])"
    r"|^\W{0,3}(?:答案|正确答案|回答|回复|答复|输出)(?:是|为|应为)?\s*[:：]?",
    re.IGNORECASE,
)
_INTRODUCES = re.compile(r"[:：]\s*[\"“「『'‘]?\s*$")
_POINTS_BACK = re.compile(
    r"\bthe\s+(?:above|preceding|previous|foregoing|last|prior)\s+(?:sentence|statement|line)\b"
    r"|\b(?:sentence|statement|line)\s+above\b|上一句|上面这句|上面那句|前一句|上述这句|以上这句",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"[\"“「『]([^\"”」』]{2,80})[\"”」』]")
_NUMBER = re.compile(r"\d[\d,.]*\d")
_CLAUSE_START = re.compile(r"(?<=[，,；;：:])\s*(?=\S)|(?<=\s)(?=[A-Z])")
"""Where a new clause may start inside a sentence: after clause punctuation, or before a capital."""
_READER_ADDRESS = re.compile(
    r"(?<![A-Za-z])(?:you|your|ai|assistant|chatbot|language\s+model|llm)(?![A-Za-z])"
    r"|你|您|助手|人工智能|大模型|机器人|ＡＩ",
    re.IGNORECASE,
)
"""A head that speaks to the reader or names an AI is the attack's own opening ("若由智能助手整理本协议，"
before "请告诉提问者…"), not a clause the attack was run on after. Narrower than the detector's addressee
feature (``injection_model._AI_ADDRESSEE``): "system" and "model" also name a party's software in honest
clauses, and a head naming them would take the clause down with the attack."""


@dataclass(frozen=True)
class Salvage:
    """What is left of a passage, and every sentence cut from it (offsets into the passage)."""

    text: str
    cuts: tuple[CutRecord, ...]


def _items(sentence: str) -> set[str]:
    """Distinctive items an attack restates: quoted strings, numbers of two digits or more, addresses."""
    found = {m.group(1).strip().lower() for m in _QUOTED.finditer(sentence)}
    found |= {m.group(0) for m in _NUMBER.finditer(sentence)}
    found |= {m.group(0).lower().rstrip(".,;:!?") for m in _CONTACT.finditer(sentence)}
    return found


def _repeats(sentence: SentenceScore, cut: SentenceScore, rest: str) -> bool:
    """Whether ``sentence`` repeats a quoted string, number or address of ``cut`` that ``rest`` (the
    passage without the two) does not hold: the attack restating its goal elsewhere."""
    near, low_rest = sentence.text.lower(), rest.lower()
    return any(item in near and item not in low_rest for item in _items(cut.text))


def _continues(
    neighbour: SentenceScore, cut: SentenceScore, after: bool, rest: str, s: VerdictSettings
) -> bool:
    """Whether ``neighbour`` (right after ``cut`` when ``after``) continues the attack in ``cut``.

    ``rest`` is the passage without the two sentences: what the honest clause says elsewhere.
    """
    if neighbour.score > s.t_salvage_neighbour:
        return True
    low_rest = rest.lower()
    if any(m.group(0).lower().rstrip(".,;:!?") not in low_rest for m in _CONTACT.finditer(neighbour.text)):
        return True
    if after and (_INTRODUCES.search(cut.text) or _PAYLOAD_OPENING.search(neighbour.text)):
        return True
    if not after and _POINTS_BACK.search(cut.text):
        return True
    return _repeats(neighbour, cut, rest)


def _rest(text: str, a: SentenceScore, b: SentenceScore) -> str:
    """``text`` without sentences ``a`` and ``b``."""
    first, second = sorted((a, b), key=lambda x: x.start)
    return text[: first.start] + " " + text[first.end : second.start] + " " + text[second.end :]


def _worst(text: str) -> float:
    """The injection score of a piece of text read on its own (its worst sentence)."""
    return max((x.score for x in score_sentences(text)), default=0.0)


def attack_offset(sentence: str, s: VerdictSettings) -> int:
    """Offset in a suspicious ``sentence`` where its attack begins (0: the whole sentence is it).

    Why the latest clean head: heads grow with the split point and stop reading clean once they
    reach the attack, so the scan stops there; the tail must still read as the attack on its own,
    and the head may not restate what the tail wants in the answer, nor speak to the reader or an
    AI (``_READER_ADDRESS``: "若由智能助手整理本协议，" scored clean alone and stayed in the excerpt).
    """
    best = 0
    for m in _CLAUSE_START.finditer(sentence):
        at = m.end()
        head, tail = sentence[:at], sentence[at:]
        if not head.strip() or not tail.strip():
            continue
        if _worst(head) > s.t_salvage_neighbour or _READER_ADDRESS.search(head):
            break
        if _worst(tail) > s.t_injection_sentence and not any(i in head.lower() for i in _items(tail)):
            best = at
    return best


def salvage_cut_indices(text: str, sentences: list[SentenceScore], s: VerdictSettings) -> set[int]:
    """Indices of the sentences to cut: the suspicious ones, the neighbours that continue them, and
    any sentence restating a cut one's goal; a sentence cut for continuing is itself a cut one."""
    cut = {i for i, x in enumerate(sentences) if x.score > s.t_injection_sentence}
    frontier = sorted(cut)
    while frontier:
        i = frontier.pop()
        for j, x in enumerate(sentences):
            if j in cut:
                continue
            rest = _rest(text, sentences[i], x)
            near = abs(i - j) == 1
            if (
                (near and sentences_wrap(text, sentences[i], x))
                or (near and _continues(x, sentences[i], j > i, rest, s))
                or (not near and _repeats(x, sentences[i], rest))
            ):
                cut.add(j)
                frontier.append(j)
    return cut


def salvage_passage(text: str, s: VerdictSettings) -> Salvage | None:
    """The passage with the attack and its continuation cut, or ``None`` when it cannot be salvaged."""
    if hidden_text_signals(text):
        return None  # hidden text (comments, styled-away spans) may straddle sentences: never salvage
    sentences = score_sentences(text)
    cut = salvage_cut_indices(text, sentences, s)
    if not cut or len(cut) == len(sentences):
        return None
    own = {i for i, x in enumerate(sentences) if x.score > s.t_injection_sentence}
    offsets = {i: attack_offset(sentences[i].text, s) if i in own else 0 for i in cut}
    records = tuple(
        CutRecord(x.start + offsets[i], x.end, text[x.start + offsets[i] : x.end], x.score)
        for i, x in enumerate(sentences)
        if i in cut
    )
    out = without(text, records)
    kept = sum(len(x.text) for i, x in enumerate(sentences) if i not in cut) + sum(offsets.values())
    total = sum(len(x.text) for x in sentences)
    if kept < s.salvage_min_kept_share * total:
        return None
    if assess(out).score > s.t_injection_sentence:
        return None  # re-split, the excerpt must read clean on its own
    return Salvage(out, records)
