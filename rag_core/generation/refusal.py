"""Explicit refusals: what was searched, and why nothing qualified.

Why explicit: "no answer" alone leaves a lawyer unsure whether the contract is silent or the
search missed; counts per verdict label ("3 irrelevant, 1 removed as prompt injection") tell them
which. Why the knowledge base's own empty-answer text when the emptiness comes from risk (seed
000): once a passage was dropped as prompt injection and nothing was kept, the answer must be the
configured text and nothing the model could be steered into — never a fallback to the model's
own knowledge.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from rag_core.generation.prompt import Language
from rag_core.models import Label, Verdict
from rag_core.settings import GenerationSettings

# The reasons a passage was dropped, in the order the explanation names them: the common case
# (irrelevant) first, then the alarming one, then the near miss.
_DROP_ORDER: tuple[Label, ...] = ("IRRELEVANT", "INJECTION", "NO_EVIDENCE")

_REASON_EN: dict[Label, str] = {
    "INJECTION": "{n} removed as prompt injection",
    "IRRELEVANT": "{n} irrelevant",
    "NO_EVIDENCE": "{n} without answer evidence",
    "EVIDENCE": "{n} kept as evidence",
    "CONFLICTING": "{n} kept as contradicting the question's premise",
}
_REASON_ZH: dict[Label, str] = {
    "INJECTION": "{n} 段疑似提示注入已移除",
    "IRRELEVANT": "{n} 段与问题无关",
    "NO_EVIDENCE": "{n} 段不含可作答的证据",
    "EVIDENCE": "{n} 段保留为证据",
    "CONFLICTING": "{n} 段与问题前提矛盾",
}
_HINT = {
    "zh": "可以换用合同中的措辞重新提问，或确认相关合同已导入知识库。",
    "en": "Try rephrasing with the contract's own wording, or check that the contract is in the knowledge base.",
}


def count_labels(verdicts: Sequence[Verdict]) -> dict[Label, int]:
    """How many passages received each label."""
    return dict(Counter(v.label for v in verdicts))


def is_risk_empty(verdicts: Sequence[Verdict]) -> bool:
    """Nothing kept and at least one passage dropped as prompt injection (seed 000's block)."""
    return any(v.label == "INJECTION" for v in verdicts) and not any(v.keep for v in verdicts)


def empty_answer_for(language: Language, kb_empty_answer: str, settings: GenerationSettings) -> str:
    """The knowledge base's configured empty-answer text, else the settings' default for the language."""
    if kb_empty_answer.strip():
        return kb_empty_answer.strip()
    return settings.empty_answer_zh if language == "zh" else settings.empty_answer_en


def _with_lead(kb_empty_answer: str, explanation: str) -> str:
    """The configured empty-answer text on its own line, then the explanation."""
    lead = kb_empty_answer.strip()
    return f"{lead}\n{explanation}" if lead else explanation


def _plural(n: int, word: str) -> str:
    """``1 passage`` / ``5 passages``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _reasons(counts: Mapping[str, int], language: Language) -> list[str]:
    """The non-zero drop reasons (then any kept labels), phrased for the language."""
    table = _REASON_ZH if language == "zh" else _REASON_EN
    order = [*_DROP_ORDER, *(label for label in table if label not in _DROP_ORDER)]
    return [table[label].format(n=counts[label]) for label in order if counts.get(label, 0) > 0]


def search_summary(language: Language, searched: int, counts: Mapping[str, int], kb_name: str = "") -> str:
    """One sentence: how many passages were searched where, and what became of them."""
    reasons = _reasons(counts, language)
    if language == "zh":
        where = f"知识库「{kb_name}」" if kb_name else "知识库"
        if searched == 0:
            return f"在{where}中没有检索到任何相关段落。"
        return f"在{where}中检索了 {searched} 段资料，均不符合要求：{'，'.join(reasons) or '无可用证据'}。"
    where = f" in '{kb_name}'" if kb_name else ""
    if searched == 0:
        return f"I searched the knowledge base{where} and found no matching passages."
    detail = ", ".join(reasons) or "no usable evidence"
    return f"I searched {_plural(searched, 'passage')}{where}; none qualified: {detail}."


def refusal_text(
    language: Language,
    searched: int,
    counts: Mapping[str, int],
    kb_empty_answer: str,
    kb_name: str = "",
) -> str:
    """The answer when no passage qualified.

    Risk-empty (any INJECTION and nothing kept, judged from ``counts``): the knowledge base's
    empty-answer text, then the explanation line, and no invitation to rephrase. Otherwise: the
    empty-answer text, the explanation and a hint on what to try.
    """
    summary = search_summary(language, searched, counts, kb_name)
    kept = counts.get("EVIDENCE", 0) + counts.get("CONFLICTING", 0)
    explanation = summary if counts.get("INJECTION", 0) > 0 and kept == 0 else f"{summary} {_HINT[language]}"
    return _with_lead(kb_empty_answer, explanation)


def uncited_refusal_text(language: Language, kept: int, kb_empty_answer: str) -> str:
    """The answer when evidence was kept but the draft answer cited none of it validly."""
    if language == "zh":
        detail = f"保留的 {kept} 段资料未被回答有效引用，为避免无依据的结论，未采用该回答。"
    else:
        detail = (
            f"The draft answer cited none of the {_plural(kept, 'kept passage')} validly, "
            "so it was withheld rather than shown without support."
        )
    return _with_lead(kb_empty_answer, detail)


def _article(word: str) -> str:
    """ "an" before a vowel sound's letter ("an uncapped liability clause"), else "a"."""
    return "an" if word[:1].lower() in "aeiou" else "a"


_KIND_WORDS: dict[str, tuple[str, str]] = {
    "date": ("日期", "date"),
    "amount": ("金额", "amount"),
    "period": ("期限", "period"),
    "percent": ("百分比", "percentage"),
    "number": ("数字", "number"),
    "party": ("当事方", "party"),
    "entity": ("当事方名称", "party's name"),
    "condition": ("条件", "condition"),
    "place": ("地点", "place"),
}
"""How the found-clause lead names the kind of value the judge found the clause lacks (zh, en)."""


def found_clause_lead(language: Language, clause_zh: str, clause_en: str, lacks: str = "") -> str:
    """The lead of the answer that quotes the asked clause when no passage holds the asked detail
    (``steps.obey.quote_found_clause``): what was found, what was not, and that the lawyer checks.
    ``lacks``: the asked kind of value the judge found missing from the clause ("period"), named
    when known — "no period found in it" tells a lawyer more than "nothing asked"."""
    zh_kind, en_kind = _KIND_WORDS.get(lacks, ("", ""))
    if language == "zh":
        missing = f"但该条款中没有找到所问的{zh_kind}" if zh_kind else "但没有一段资料写明问题所问的内容"
        return f"检索到{clause_zh}条款，{missing}（均不含可作答的证据）。以下为该条款原文摘录，请核对："
    if en_kind:
        missing = f"but no {en_kind} could be read in it (no passage holds answer evidence)"
    else:
        missing = "but no passage states what was asked (none holds answer evidence)"
    return f"{_article(clause_en).capitalize()} {clause_en} clause was found, {missing}. The clause, quoted for you to check:"


def absent_clause_text(
    language: Language,
    clause_zh: str,
    clause_en: str,
    searched: int,
    kb_empty_answer: str,
    found: bool = False,
) -> str:
    """The answer when the question's clause type is in none of the kept passages: say so, cite nothing.

    ``found``: a retrieved passage looks like the type, but the judge kept none of it as evidence; then
    "the documents contain no … clause" may be false, and so is "the documents have one" (the type
    classifier's threshold is a doubt, not a finding), so the answer says what was seen: passages
    that look like such a clause, none of which answers.
    """
    if found:
        if language == "zh":
            detail = (
                f"检索到的资料中有看似{clause_zh}条款的段落，但没有一段含有能回答该问题的内容，"
                "因此不以其他条款作答。"
            )
        else:
            detail = (
                f"Some passages searched look like {_article(clause_en)} {clause_en} clause, but none of them answers the "
                "question, so no other clause is used to answer."
            )
        return _with_lead(kb_empty_answer, detail)
    if language == "zh":
        detail = f"文件中没有找到{clause_zh}条款：检索到的 {searched} 段资料中没有一段属于该类条款，因此不以其他条款作答。"
    else:
        detail = (
            f"The documents contain no {clause_en} clause: none of the {_plural(searched, 'passage')} "
            "searched is one, so no other clause is used to answer."
        )
    return _with_lead(kb_empty_answer, detail)
