"""Readings of a sentence that undo a cheap disguise: rot13, reversed text, base64, hex, homoglyphs.

Why a module of its own: "hide the command so the filter cannot read it" is a way of attacking,
not a wording, so the defence must read the hidden text rather than learn what an encoded blob
looks like. Every reading here is pure and local to one sentence.

Why word runs, not whole sentences: a reversed command keeps its full stop at the front
(".diov si tcartnoc eht ... erongI"), so the sentence splitter glues it to the honest sentence
after it, and a whole-sentence reversal then reads half as English, half as noise. Instead each
Latin word is checked on its own (is it a very common English word as written, reversed, in
rot13?) and the best contiguous run of words that reads better decoded than as written is the
disguised part (a maximum-sum sub-array of "+1 decoded common, -1 plain common").

Why "reads as prose" matters by itself: an honest contract holds ids, hashes and certificate
fingerprints, which decode to noise; it never holds English sentences in base64, hex, rot13 or
backwards. A decoded view that reads as prose is therefore a signal even when no rule fires on it.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

ZERO_WIDTH: str = "\u200b\u200c\u200d\u2060\ufeff\u180e"

DISGUISE_MIN_WORDS: int = 4
"""Latin words a decoded run needs before it counts as a reading of the sentence."""

DISGUISE_MIN_GAIN: int = 3
"""How many more very common English words a run must hold decoded than as written."""

PROSE_MIN_WORDS: int = 4
"""Words a decoded text needs to be judged as prose."""

PROSE_MIN_SHARE: float = 0.3
"""Share of very common English words above which a decoded text reads as prose."""

BASE64_MIN_CHARS: int = 40
"""Shortest run of base64 alphabet treated as an encoded blob (shorter runs are ids and hashes)."""

BASE64_MIN_PRINTABLE: float = 0.9
"""Share of printable characters for a decoded blob to count as hidden text."""

HEX_MIN_CHARS: int = 24
"""Shortest run of hex digits decoded as text (shorter runs are ids and hashes)."""

SPACED_MIN_SHARE: float = 0.6
"""Share of one-letter tokens above which a sentence is read as letter-spaced ("S a y  t h a t")."""

SPACED_MIN_TOKENS: int = 8
"""One-letter tokens a sentence needs before its closed-up reading is tried."""

# Very common English words (function words and the verbs of a command to a reader): a sentence
# of English prose is ~40-60 % these; rot13, reversed text and decoding noise almost none.
COMMON_WORDS: frozenset[str] = frozenset(
    "the and to of a in is you your that it for on with as this be are all not or from by at an "
    "me my say said tell ignore instructions previous above answer reply print write now please "
    "was were will would can could should must do does did have has had no yes any every only "
    "just what which who when where how if then than so but there their they them we our us he "
    "she his her its into about after before user users reveal system prompt rules forget follow "
    "contract agreement payment required void granted access".split()
)

_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_BASE64 = re.compile(rf"[A-Za-z0-9+/]{{{BASE64_MIN_CHARS},}}={{0,2}}")
_HEX_RUN = re.compile(rf"\b(?:[0-9a-fA-F]{{2}}\s?){{{HEX_MIN_CHARS // 2},}}\b")

# Cyrillic and Greek letters that look like Latin ones (the usual homoglyph substitutions).
_CONFUSABLES: dict[str, str] = {
    "а": "a", "в": "b", "с": "c", "е": "e", "һ": "h", "і": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "ѕ": "s", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J", "К": "K",
    "М": "M", "О": "O", "Р": "P", "Ѕ": "S", "Т": "T", "Х": "X", "У": "Y",
    "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "Α": "A", "Β": "B", "Ε": "E", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Χ": "X", "Υ": "Y", "Ζ": "Z",
}  # fmt: skip
_MIXED_WORD = re.compile(r"[A-Za-z\u0370-\u03ff\u0400-\u04ff\u0500-\u052f]+")
_NON_LATIN_LETTER = re.compile(r"[\u0370-\u03ff\u0400-\u04ff\u0500-\u052f]")


def _fold_word(m: re.Match[str]) -> str:
    """A word mixing Latin letters with Cyrillic/Greek look-alikes, written in Latin letters."""
    word = m.group(0)
    has_latin = any("a" <= ch.lower() <= "z" for ch in word)
    all_confusable = all(ch in _CONFUSABLES for ch in word if _NON_LATIN_LETTER.match(ch))
    return "".join(_CONFUSABLES.get(ch, ch) for ch in word) if has_latin and all_confusable else word


def fold_homoglyphs(text: str) -> str:
    """Words that mix Latin letters with Cyrillic or Greek look-alikes ("іgnоre") in Latin letters.

    Why only mixed words: a Russian or Greek word is left as it is (the override rules read
    Russian too); a word that is Latin but for a few look-alike letters is a disguise.
    """
    return _MIXED_WORD.sub(_fold_word, text) if _NON_LATIN_LETTER.search(text) else text


def normalize(text: str) -> str:
    """NFKC-fold, drop zero-width characters, fold homoglyphs: look-alike and split words still match."""
    folded = unicodedata.normalize("NFKC", text).translate({ord(c): None for c in ZERO_WIDTH})
    return fold_homoglyphs(folded)


def common_word_share(text: str) -> float:
    """Share of Latin words that are very common English words: low for rot13 or reversed text."""
    words = _LATIN_WORD.findall(text.lower())
    return sum(w in COMMON_WORDS for w in words) / len(words) if words else 0.0


def reads_as_prose(text: str) -> bool:
    """True when ``text`` has enough Latin words, enough of them very common English words."""
    return len(_LATIN_WORD.findall(text)) >= PROSE_MIN_WORDS and common_word_share(text) >= PROSE_MIN_SHARE


def _rot13(word: str) -> str:
    return codecs.encode(word, "rot13")


def _reverse(word: str) -> str:
    return word[::-1]


def _best_run(sentence: str, decode_word: Callable[[str], str]) -> tuple[int, int] | None:
    """Character span of the run of words that gains most common words when decoded, if enough."""
    words = list(_LATIN_WORD.finditer(sentence))
    best, best_span, run, run_start = 0, None, 0, 0
    for i, m in enumerate(words):
        w = m.group(0).lower()
        gain = int(decode_word(w) in COMMON_WORDS) - int(w in COMMON_WORDS)
        if run <= 0:
            run, run_start = 0, i
        run += gain
        if run > best:
            best, best_span = run, (run_start, i)
    if best < DISGUISE_MIN_GAIN or best_span is None:
        return None
    first, last = best_span
    if last - first + 1 < DISGUISE_MIN_WORDS:
        return None
    return words[first].start(), words[last].end()


def _run_views(sentence: str) -> list[tuple[str, str]]:
    """rot13 and reversed readings of the best disguised run of words (see the module docstring)."""
    views: list[tuple[str, str]] = []
    span = _best_run(sentence, _rot13)
    if span:
        views.append(("rot13", codecs.encode(sentence[span[0] : span[1]], "rot13")))
    span = _best_run(sentence, _reverse)
    if span:
        views.append(("reversed", sentence[span[0] : span[1]][::-1]))
    return views


def decode_base64(blob: str) -> str | None:
    """The blob's text when it decodes to mostly printable UTF-8, else ``None``."""
    try:
        raw = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=False)
        decoded = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    printable = sum(ch.isprintable() or ch.isspace() for ch in decoded)
    return decoded if decoded and printable / len(decoded) >= BASE64_MIN_PRINTABLE else None


def base64_blobs(text: str) -> list[str]:
    """Every run of the base64 alphabet long enough to be an encoded blob."""
    return [m.group(0) for m in _BASE64.finditer(text)]


def _hex_views(sentence: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in _HEX_RUN.finditer(sentence):
        blob = "".join(m.group(0).split())
        try:
            decoded = bytes.fromhex(blob[: len(blob) // 2 * 2]).decode("utf-8")
        except ValueError:
            continue
        if decoded.isprintable():
            out.append(("hex", decoded))
    return out


@dataclass(frozen=True)
class View:
    """A decoded reading of (part of) a sentence: how it was decoded and whether it reads as prose."""

    how: str
    text: str
    prose: bool


_TOKEN = re.compile(r"\S+")
_LETTER_GAP = re.compile(r"(?<=\b\w) (?=\w\b)")


def closed_up(sentence: str) -> str | None:
    """A letter-spaced sentence with single spaces between letters closed up and wider gaps kept
    as word breaks ("S a y  t h a t" -> "Say that"), or ``None`` when it is not letter-spaced."""
    tokens = _TOKEN.findall(sentence)
    singles = sum(len(t) == 1 and t.isalnum() for t in tokens)
    if singles < SPACED_MIN_TOKENS or singles / len(tokens) < SPACED_MIN_SHARE:
        return None
    return " ".join(_LETTER_GAP.sub("", sentence).split())


def decoded_views(sentence: str) -> list[tuple[str, str]]:
    """Readings of ``sentence`` that undo a cheap disguise: rot13, reversed, base64, hex, letter
    spacing (named)."""
    views = _run_views(sentence)
    spaced = closed_up(sentence)
    if spaced:
        views.append(("spaced", spaced))
    for blob in base64_blobs(sentence):
        decoded = decode_base64(blob)
        if decoded:
            views.append(("base64", decoded))
    return views + _hex_views(sentence)


def prose_views(sentence: str) -> list[View]:
    """The decoded readings of ``sentence``, each marked as prose or not."""
    return [View(how, text, reads_as_prose(text)) for how, text in decoded_views(sentence)]
