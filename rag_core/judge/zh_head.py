"""The Chinese head: relevance and evidence of a Chinese passage for a Chinese question, re-scored by a
small logistic stacked on the shared models and fitted on the project's written Chinese pairs (``qa_zh``).

Why: the shared relevance and evidence models are fitted on English pairs (CUAD, PrivacyQA), so
they weigh a Chinese passage by what carries over — the clause type, the glossary's translations,
words the question shares with it. Asked in a client's words ("房东迟迟不修房子怎么办？" of a clause
headed 维修责任, "合同发生纠纷去哪里起诉？" of 争议解决) a Chinese clause shares no word with the
question and was not kept. What the shared models never weigh for Chinese text is what such
questions still share with the clause: single characters (修 in 维修, 诉 in 起诉), the meaning of
the clause's heading and of its best sentence (multilingual USE vectors, ``dense``). The head reads
those beside the shared models' log-odds, so it moves a Chinese passage's scores only where the
written pairs show the shared models wrong.

Why a head and not the written pairs in the shared fit: fitted together they moved the weights
every English question uses, and six pipeline tests on the Chinese fixtures failed (session 22).

How it is fitted and measured: each Chinese question of an entry of ``qa_zh`` against
every clause of its contract kind and a few clauses of other kinds; the entry's own clause is
relevant, and evidence only for the questions it answers (a clause of the topic that leaves the
asked detail open is relevant, not evidence). Other clauses of the same topic are left out (their
label is unclear). ``train judge`` reports leave-one-contract-kind-out figures of the head beside
those of the shared models on the same pairs (``zh_head_cv``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from rag_core.judge import dense
from rag_core.textproc import detect_language, is_chinese

if TYPE_CHECKING:
    from rag_core.judge.fitted import Logistic, SharedScores

FEATURES: tuple[str, ...] = (
    "relevance_logit",
    "evidence_logit",
    "cos",
    "sentence_cos",
    "heading_cos",
    "char_overlap",
    "coverage",
    "best_sentence",
    "kind_asked",
    "kind_matched",
    "kind_missing",
)

LOGIT_CLIP: float = 1e-4
"""Probabilities are clipped to [clip, 1 - clip] before their log-odds are a feature."""

_FUNCTION_CHARS: frozenset[str] = frozenset(
    "的了吗呢是什么多少怎么如何谁哪里几个有没不会能可以要这那本该请问和与及或在对把被给从向就都也还吧啊呀么"
)
"""Characters that carry no subject (question words, particles, pronouns, copulas): a shared 的 or
是 says nothing about what a clause is about."""

_HEADING = re.compile(
    r"(?m)^[ \t\u3000]*第[一二三四五六七八九十百零〇两0-9]{1,8}条[ \t\u3000：:、]*([^\s，。；：:,;]{2,12})"
)
"""A Chinese article heading's title (维修责任 of "第五条 维修责任"), on its own line or before the text."""


@dataclass(frozen=True)
class ZhHead:
    """The head's two logistics over ``FEATURES``: relevance, and whether a relevant passage states
    the asked fact (``answers``). Evidence is their product.

    Why a product and not an evidence logistic of its own: among the written pairs the answering
    clause and the relevant one are the same clause but for the few that leave the asked detail
    open, so an evidence logistic fitted on all pairs learned relevance again — a warranty clause
    holding every word of "货物的质量保证期是多久？" but no period came out 0.98 (the shared models:
    0.45). Fitted on the relevant clauses only, ``answers`` learns what tells them apart."""

    relevance: Logistic
    answers: Logistic

    def scores(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Relevance and evidence of the rows of ``x``."""
        rel = self.relevance.proba(x)
        return rel, rel * self.answers.proba(x)


def applies(question: str, text: str) -> bool:
    """Whether the head scores this pair: a Chinese question and a Chinese passage (the share of
    ideographs among letters).

    Why not an English question too: its words meet a Chinese clause only through the glossary's
    translations, and the English questions written beside the Chinese ones in ``qa_zh`` are worded
    after their clauses, so the head learned to trust a translated match: "What is the warranty
    period for the software?" took an employment contract's confidentiality clause ("…离职后两年内…
    承担保密义务", clause type 1 % warranty) for evidence (0.77), which the shared models had not."""
    return is_chinese(question) and detect_language(text) == "zh"


def _logit(p: float) -> float:
    q = min(max(p, LOGIT_CLIP), 1.0 - LOGIT_CLIP)
    return math.log(q / (1.0 - q))


def content_chars(text: str) -> frozenset[str]:
    """The ideographs of ``text`` that can name a subject (``_FUNCTION_CHARS`` left out)."""
    return frozenset(c for c in text if "\u4e00" <= c <= "\u9fff" and c not in _FUNCTION_CHARS)


def char_overlap(question: str, text: str) -> float:
    """Share of the question's content characters found in the passage.

    Why characters: a client's word and the contract's word often share one (修 in 维修, 诉 in 起诉)
    where their word tokens share nothing."""
    q = content_chars(question)
    return len(q & content_chars(text)) / len(q) if q else 0.0


@lru_cache(maxsize=8192)
def sentence_texts(text: str) -> tuple[str, ...]:
    """The passage's sentences (``dense.sentences``: the ones the lexical best-sentence feature reads)."""
    return tuple(dense.sentences(text))


def headings(text: str) -> tuple[str, ...]:
    """The titles of the passage's Chinese article headings."""
    return tuple(m.group(1) for m in _HEADING.finditer(text))


def head_rows(s: SharedScores, idx: list[int], embed_fn: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """The head's features (``FEATURES`` order) of the passages ``idx`` of the shared models' scores."""
    q = s.question
    texts = [s.passages[i].text for i in idx]
    sents = [sentence_texts(t) for t in texts]
    heads = [headings(t) for t in texts]
    flat = [sentence for ss in sents for sentence in ss] + [h for hh in heads for h in hh]
    vecs = dict(zip(flat, embed_fn(flat), strict=True)) if flat else {}
    rows = []
    for k, i in enumerate(idx):
        t, x, p = texts[k], s.lexical[i], s.passages[i]
        asked = 1.0 if x.kinds else 0.0
        matched = 1.0 if x.matched else 0.0
        rows.append(
            [
                _logit(float(s.relevance[i])),
                _logit(float(s.evidence[i])),
                float(q.vec @ p.vec),
                max(float(vecs[sentence] @ q.vec) for sentence in sents[k]),
                max((float(vecs[h] @ q.vec) for h in heads[k]), default=0.0),
                char_overlap(q.text, t),
                x.coverage + x.translated,
                max(x.best_sentence, x.translated_best_sentence),
                asked,
                matched,
                asked * (1.0 - matched),
            ]
        )
    return np.asarray(rows, dtype=np.float64).reshape(len(idx), len(FEATURES))


def head_from_json(data: dict[str, Any]) -> ZhHead:
    """The head from its JSON form (``training.fit_zh_head`` writes it)."""
    from rag_core.judge.fitted import Logistic

    return ZhHead(Logistic.from_json(data["relevance"]), Logistic.from_json(data["answers"]))
