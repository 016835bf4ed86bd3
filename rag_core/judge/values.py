"""The values a premise or passage states (amounts, dates, periods, percentages, numbers, party and
place names) with their lexicons: what the premise-conflict score (``conflict.py``), relevance and
the premise correction compare.

Why its own module: reading values out of Chinese and English text is most of the conflict judge's
code, and relevance and reflection use it without the score.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import jieba.posseg as pseg


def _wordset(words: str) -> frozenset[str]:
    """A word list written as one space-separated string (easier to read and extend)."""
    return frozenset(words.split())


MIN_ZH_NAME_CHARS: int = 2
"""Shorter Chinese "names" are jieba splitting an unknown name into single characters."""


# --- lexicons ------------------------------------------------------------------------------------

_MONTHS: dict[str, int] = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH_RX = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_EN_UNITS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
}  # fmt: skip
_EN_TENS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
# every word from one to ninety-nine: "eighteen (18) months" (an escrow period) was no period at all
# while only some teens and tens were listed (session 33 try-out)
_EN_NUMBER_WORDS: dict[str, int] = {
    **_EN_UNITS,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
    **_EN_TENS,
    **{f"{t}-{u}": tv + uv for t, tv in _EN_TENS.items() for u, uv in _EN_UNITS.items()},
    "hundred": 100,
}  # fmt: skip
# the financial numerals (大写: 壹佰叁拾伍万元) with the ordinary ones: contracts write sums in both
_ZH_DIGITS: dict[str, int] = {
    "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
    "壹": 1, "贰": 2, "貳": 2, "叁": 3, "參": 3, "肆": 4, "伍": 5, "陆": 6, "陸": 6, "柒": 7, "捌": 8, "玖": 9,
}  # fmt: skip
_ZH_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000, "拾": 10, "佰": 100, "仟": 1000}
_ZH_BIG: dict[str, int] = {"万": 10_000, "亿": 100_000_000, "萬": 10_000, "億": 100_000_000}
_SCALES: dict[str, float] = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
    "千": 1e3, "万": 1e4, "亿": 1e8,
}  # fmt: skip
_CURRENCIES: dict[str, str] = {
    "$": "usd", "us$": "usd", "usd": "usd", "dollar": "usd", "dollars": "usd", "美元": "usd",
    "rmb": "cny", "¥": "cny", "yuan": "cny", "元": "cny", "人民币": "cny", "cny": "cny",
    "€": "eur", "eur": "eur", "euro": "eur", "euros": "eur", "欧元": "eur", "£": "gbp", "gbp": "gbp", "英镑": "gbp",
}  # fmt: skip
_PERIOD_DAYS: dict[str, float] = {
    "hour": 1 / 24, "hours": 1 / 24, "小时": 1 / 24, "个小时": 1 / 24,
    "day": 1, "days": 1, "week": 7, "weeks": 7, "month": 30, "months": 30, "year": 365, "years": 365,
    "天": 1, "日": 1, "工作日": 1, "个工作日": 1, "周": 7, "星期": 7, "个星期": 7, "个月": 30, "月": 30, "年": 365,
}  # fmt: skip

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_ZHNUM = r"[零〇一二两三四五六七八九十百千万亿壹贰貳叁參肆伍陆陸柒捌玖拾佰仟萬億]+"
_ENWORD = "|".join(sorted(_EN_NUMBER_WORDS, key=len, reverse=True))
EN_ORDINALS: dict[str, int] = {
    w: i + 1
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
        "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split()
    )
}
"""English ordinal words and their numbers: "the fifth anniversary" here, "the third day after" in the
support check (``reflection.support``), one table for both."""
_ORDINAL_RX = "|".join(EN_ORDINALS)

_EN_STOP = _wordset(
    "a an the of to in on for and or is are was were be been being do does did i my me you your we our us it its "
    "this that these those what which who whom whose how when where why will would can could should may might "
    "shall with by from as at any all there their they them if not no yes have has had about into over than so "
    "such other also just only more most some up out new"
)
_ZH_STOP = _wordset(
    "的 了 是 在 和 与 及 或 有 为 对 于 把 被 就 都 而 也 并 等 之 其 这 那 哪 谁 什么 多少 如何 怎么 怎样 为什么 何时 "
    "哪个 哪些 哪里 哪一 是否 吗 呢 啊 吧 个 年 月 日 中 上 下 时候 时间 日期 一个 我们 你们 他们"
)
_QUESTION_CAPS = _wordset(
    "who what when where which how why is are was were does do did will can could should would the a an in on at "
    "for of to this that these it its he she they we i and but or if"
)
_NEGATION_EN = re.compile(
    r"\b(?:not|no|never|neither|nor|cannot|without|prohibited|forbidden|may\s+not|shall\s+not|must\s+not)\b|n't\b",
    re.IGNORECASE,
)
_NEGATION_ZH = re.compile(
    r"不得|不能|不可(?!抗力)|不应|无权|禁止|没有|未(?!来)|不(?!动产|可抗力|仅|断|定期)|无(?!限|论|条件|误)|非(?!常)"
)
"""Chinese negation words, not the words built on them that negate nothing: 不动产 (real estate), 不可抗力 (force
majeure), 不仅, 不断, 不定期, 未来, 无限 (unlimited), 无论, 无条件, 无误, 非常. "合伙人对合伙企业的债务承担什么责任？"
was corrected ("不对") by "合伙人对合伙企业的债务承担无限连带责任" read as a negation (session 34)."""
_NEGATION_DE = re.compile(r"\b(?:nicht|kein|keine|keinen|niemals)\b", re.IGNORECASE)
_REFERENCE_BEFORE = re.compile(
    r"(?:section|clause|article|paragraph|exhibit|schedule|annex|§|no\.|#)\s*$", re.IGNORECASE
)
_NAME_POS = ("nr", "ns", "nt", "nz", "eng")

# --- values ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """One typed value found in a text: what it is, its comparable key, and where it is."""

    kind: str  # amount | percent | date | year | period | ordinal | number | name
    key: tuple[object, ...]
    start: int
    end: int
    surface: str

    def describe(self) -> str:
        """The value as a person would write it in an explanation."""
        return self.surface.strip()


def zh_number(s: str) -> float | None:
    """Value of a Chinese numeral ("三", "十五", "一百二十", "三万"), or ``None`` if it is not one."""
    if not s or any(ch not in _ZH_DIGITS and ch not in _ZH_UNITS and ch not in _ZH_BIG for ch in s):
        return None
    total = 0
    section = 0
    digit = -1
    for ch in s:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
        elif ch in _ZH_UNITS:
            section += (1 if digit < 0 else digit) * _ZH_UNITS[ch]
            digit = -1
        else:
            section += max(digit, 0)
            total += section * _ZH_BIG[ch]
            section, digit = 0, -1
    return float(total + section + max(digit, 0))


def parse_number(s: str) -> float | None:
    """Arabic, Chinese or English-word numeral as a float."""
    s = s.strip().lower()
    if re.fullmatch(_NUM, s):
        return float(s.replace(",", ""))
    if s in _EN_NUMBER_WORDS:
        return float(_EN_NUMBER_WORDS[s])
    return zh_number(s)


def normalize_text(text: str) -> str:
    """NFKC: full-width digits, letters and punctuation become ASCII so one set of patterns fits."""
    return unicodedata.normalize("NFKC", text)


def _month(name: str) -> int:
    return _MONTHS[name.lower().rstrip(".")[:4] if name.lower().startswith("sept") else name.lower()[:3]]


_VALUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "date",
        re.compile(
            rf"\b(?P<mon>{_MONTH_RX})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b"
            rf"|\b(?P<d2>\d{{1,2}})\s+(?P<mon2>{_MONTH_RX})\.?,?\s+(?P<y2>\d{{4}})\b"
            rf"|\b(?P<y4>\d{{4}})[-/.](?P<m4>\d{{1,2}})[-/.](?P<d4>\d{{1,2}})\b"
            rf"|(?P<y5>\d{{4}})\s*年\s*(?P<m5>\d{{1,2}}|{_ZHNUM})\s*月(?:\s*(?P<d5>\d{{1,2}}|{_ZHNUM})\s*[日号])?"
            rf"|\b(?P<mon3>{_MONTH_RX})\.?,?\s+(?P<y3>\d{{4}})\b"
            rf"|\b(?P<mon6>{_MONTH_RX})\.?\s+(?P<d6>\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?:,\s*)?\d)"
            rf"|(?<!\d)(?P<m7>\d{{1,2}})\s*月\s*(?P<d7>\d{{1,2}})\s*[日号]"
        ),
    ),
    (
        "percent",
        re.compile(
            rf"(?P<n>{_NUM})\s*(?:%|percent\b|per\s+cent\b)|百分之(?P<zh>{_ZHNUM}|{_NUM})"
            rf"|(?P<base>千分之|万分之)(?P<zh2>{_ZHNUM}|{_NUM})|(?P<n3>{_NUM})\s*(?P<sign>‰|‱)"
        ),
    ),
    (
        "amount",
        re.compile(
            rf"(?P<cur>US\$|\$|USD|RMB|¥|€|EUR|£|GBP)\s*(?P<n>{_NUM})\s*(?P<sc>million|billion|thousand|bn|mn|[mbk]\b|万|亿|千)?"
            rf"|(?P<n2>{_NUM}|{_ZHNUM})\s*(?P<sc2>million|billion|thousand|万|亿|千)?\s*"
            rf"(?P<cur2>dollars?|USD|RMB|yuan|euros?|EUR|美元|元|人民币|欧元|英镑)",
            re.IGNORECASE,
        ),
    ),
    (
        "period",
        re.compile(
            rf"(?:(?P<w>{_ENWORD})\s*\(\s*(?P<wd>\d+)\s*\)|(?P<n>{_NUM})|(?P<w2>\b(?:{_ENWORD})\b))[\s-]*"
            # "working"/"banking"/"clear" days (British drafting): "25 working days' paid holiday" was read as a
            # bare number, so "How many days of holiday …?" found the holiday clause lacking a period (session 40)
            r"(?P<u>(?:(?:business|calendar|consecutive|full|working|banking|clear)\s+)?(?:hours?|days?|weeks?|months?|years?))\b"
            rf"|(?P<zn>{_NUM}|{_ZHNUM})\s*(?P<zu>个工作日|工作日|个星期|星期|个月|个小时|小时|周|天|年(?!\d))"
            # "三十日内", "十五日后" are periods; "每月5日后", "次月十日后" a day of the month
            rf"|(?<![月\d〇零一二三四五六七八九十百千两])(?P<zd>{_NUM}|{_ZHNUM})\s*(?P<zdu>日)(?=内|以内|之内|以上|以下|之后|后)",
            re.IGNORECASE,
        ),
    ),
    (  # "提前三十日通知", "逾期超过十五日": days counted from an event, not a day of the month ("每月5日前")
        "period",
        re.compile(
            # not "每逾期一日": a rate's unit (per day late), no period the clause lasts; read as one, "施工合同的工期是
            # 多长？" quoted the delay-damages sentence before "总日历天数487天" (session 42 try-out)
            rf"(?:(?<=提前)|(?<=超过)|(?<=满)|(?<=不少于)|(?<=不超过)|(?<=至少)|(?<=不足)|(?<=(?<!每)逾期))"
            rf"(?P<zn>{_NUM}|{_ZHNUM})\s*(?P<zu>日)"
        ),
    ),
    (
        "period",
        re.compile(
            rf"\b(?P<an>{_ORDINAL_RX}|\d{{1,2}}(?:st|nd|rd|th))(?:\s*\(\s*\d{{1,2}}\s*(?:st|nd|rd|th)?\s*\))?"
            r"\s+anniversary\b",
            re.IGNORECASE,
        ),
    ),
    (
        "ordinal",
        re.compile(rf"第\s*(?P<n>{_NUM}|{_ZHNUM})\s*(?P<u>届|次|期|季|代|名)|\b(?P<n2>\d+)(?:st|nd|rd|th)\b"),
    ),
    ("year", re.compile(r"(?<![\d.,$])(?P<y>(?:19|20)\d{2})(?![\d%])")),
    (
        "number",
        re.compile(
            rf"(?<![A-Za-z0-9_.$-])(?P<n>{_NUM})(?![A-Za-z0-9_%])|(?P<zn>{_ZHNUM})(?=\s*(?:个|名|家|位|项|次(?!性)|倍|席|人|件|台|股|支|所|座))"
        ),
    ),
)


def _date_key(m: re.Match[str]) -> tuple[object, ...]:
    """(year, month, day) with ``None`` for what the text leaves out."""
    g = m.groupdict()
    if g["mon"]:
        return (int(g["y"]), _month(g["mon"]), int(g["d"]))
    if g["mon2"]:
        return (int(g["y2"]), _month(g["mon2"]), int(g["d2"]))
    if g["y4"]:
        return (int(g["y4"]), int(g["m4"]), int(g["d4"]))
    if g["y5"]:
        month = parse_number(g["m5"])
        day = parse_number(g["d5"]) if g["d5"] else None
        return (int(g["y5"]), int(month or 0), int(day) if day else None)
    if g["mon3"]:
        return (int(g["y3"]), _month(g["mon3"]), None)
    if g["mon6"]:
        return (None, _month(g["mon6"]), int(g["d6"]))
    return (None, int(g["m7"]), int(g["d7"]))


_PER_BASE: dict[str, float] = {"千分之": 10.0, "‰": 10.0, "万分之": 100.0, "‱": 100.0}
"""What a per-mille or per-ten-thousand rate is divided by to be a percentage (千分之五: 0.5 %)."""


def _key_of(kind: str, m: re.Match[str]) -> tuple[object, ...] | None:
    """Comparable key of a matched value, or ``None`` when the match is not a usable value."""
    g = m.groupdict()
    if kind == "date":
        return _date_key(m)
    if kind == "percent":  # per mille and per ten thousand as the percentage they are (千分之五: 0.5)
        n = parse_number(g["n"] or g["zh"] or g["zh2"] or g["n3"] or "")
        per = _PER_BASE.get(g["base"] or g["sign"] or "", 1.0)
        return None if n is None else (n / per,)
    if kind == "amount":
        n = parse_number(g["n"] or g["n2"] or "")
        if n is None:
            return None
        scale = (g["sc"] or g["sc2"] or "").lower()
        cur = (g["cur"] or g["cur2"] or "").lower()
        return (n * _SCALES.get(scale, 1.0), _CURRENCIES.get(cur, cur))
    if kind == "period" and g.get("an"):  # "the fifth (5th) anniversary of the Effective Date": five years
        word = g["an"].lower()
        years = EN_ORDINALS.get(word) or parse_number(re.sub(r"(?:st|nd|rd|th)$", "", word))
        return None if years is None else (float(years) * _PERIOD_DAYS["year"],)
    if kind == "period":
        if g["zn"] or g.get("zd"):
            n = parse_number(g["zn"] or g["zd"])
            unit = g["zu"] or g["zdu"]
            if unit == "年" and n is not None and n >= 100:
                return None  # a calendar year, not a period
        else:
            n = float(g["wd"]) if g["wd"] else parse_number(g["n"] or g["w2"] or "")
            unit = re.sub(
                r"^(?:business|calendar|consecutive|full|working|banking|clear)\s+",
                "",
                re.sub(r"\s+", " ", g["u"].lower()),
            )
        if n is None:
            return None
        return (n * _PERIOD_DAYS.get(unit, _PERIOD_DAYS.get(unit.rstrip("s"), 1)),)
    if kind == "ordinal":
        n = parse_number(g["n"] or g["n2"] or "")
        return None if n is None else (n, g.get("u") or "")
    if kind == "year":
        return (int(g["y"]),)
    n = parse_number(g["n"] or g["zn"] or "")
    return None if n is None else (n,)


def _is_reference(text: str, start: int) -> bool:
    """A number right after "Section", "Article", "§"… is a cross-reference, not an asserted value."""
    return bool(_REFERENCE_BEFORE.search(text[max(0, start - 12) : start]))


def _attached_to_word(text: str, start: int, end: int) -> bool:
    """A number that is part of a name or a list marker: glued to a word ("GPT-3", "Q2"), after a
    capitalised word ("Diablo 3"), a one-digit title number ("chronicles 2", "season 4"), or "(1)"."""
    before = text[max(0, start - 20) : start]
    if re.search(r"(?:[A-Z]\w*[\s-]|[A-Za-z-])$", before):
        return True
    if text[start - 1 : start] == "(" and text[end : end + 1] == ")":
        return True
    prev = re.search(r"([A-Za-z]+)\s$", before)
    return bool(prev and end - start == 1 and prev.group(1).lower() not in _EN_STOP)


def numeric_values(text: str) -> list[Value]:
    """Dates, percentages, amounts, periods, ordinals, years and numbers, longest reading first."""
    taken = [False] * (len(text) + 1)
    out: list[Value] = []
    for kind, rx in _VALUE_PATTERNS:
        for m in rx.finditer(text):
            s, e = m.span()
            if s == e or any(taken[s:e]):
                continue
            if kind in ("number", "year") and (
                _is_reference(text, s) or (kind == "number" and _attached_to_word(text, s, e))
            ):
                continue
            key = _key_of(kind, m)
            if key is None:
                continue
            out.append(Value(kind, key, s, e, m.group(0)))
            for i in range(s, e):
                taken[i] = True
    return out


_EN_TOKEN = r"(?:(?:[A-Z]\.){2,}|[A-Z][A-Za-z0-9À-ÿ'’&-]*\.?)"
_EN_NAME = re.compile(
    rf"{_EN_TOKEN}(?:\s+(?:(?:of|the|de|la|von|van|du|da|and|&)\s+)?(?:{_EN_TOKEN}|\d+\b))*"
)
_KIND_NOUNS = _wordset(
    "open cup bowl award awards prize stadium film movie season edition games election championship championships "
    "final finals presentation company inc corp corporation ltd llc university hotel productions group bank "
    "agreement act court river street road park center centre league party"
)
_SENTENCE_START = re.compile(r"(?:^|[.!?;:·]\s+|\.\.\.\s*|\n\s*)$")
_ORDINARY_WORD = re.compile(
    r"(?:ing|ed|ly|tion|ment|ness|ers|ies|ings|ts)$|^(?:Last|Release|Strong|Console|Genre|Publisher|Find|Now|Then|"
    r"Here|There|After|Before|During|While|Since|Although|Also|However|Today|Following|Every|Each|Many|Most|"
    r"Some|Such|Under|Over|Between|Among|Both|Only|First|New|Read|See|Watch|Get|Official)$"
)
_INTERROGATIVE_EN = re.compile(r"\b(?:who|whom|whose|what|when|where|which|how|why)\b|\?\s*$", re.IGNORECASE)
_INTERROGATIVE_ZH = re.compile(r"谁|什么|哪|多少|几[个年月天]|何时|何地|吗|是否|怎么|如何|为什么|[?？]\s*$")


def _name_key(surface: str) -> tuple[object, ...]:
    """Distinctive lower-case tokens of a name; "U.S. Open" and "US Open" share a key."""
    toks = [re.sub(r"['’]s$", "", t.replace(".", "")) for t in re.findall(r"[\w.'’-]+", surface.lower())]
    return tuple(sorted({t for t in toks if t and t not in _EN_STOP and not t.isdigit()}))


def _split_at_stops(text: str) -> list[tuple[int, str]]:
    """Capitalised spans cut where a word of two or more letters ends with a full stop ("PST. Console")."""
    out: list[tuple[int, str]] = []
    for m in _EN_NAME.finditer(text):
        pos = m.start()
        for piece in re.split(r"(?<=[A-Za-z]{2}\.)\s+", m.group(0)):
            start = text.find(piece, pos)
            out.append((start, piece))
            pos = start + len(piece)
    return out


_LATER_SENTENCE_START = re.compile(r"[.!?][\s*_\"“'(]*[\s*_\"“'(]$")
"""A sentence end, then space or opening marks ("? **Answer"): what comes before a later sentence's first word."""
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)")
_AUXILIARY = frozenset(
    "is are was were has have had shall will may must can could does did should would might".split()
)


def _opens_an_instruction(text: str, start: int, words: list[str]) -> bool:
    """A single capitalised word opening a later sentence of a question, followed by a word that is no
    auxiliary: the sentence tells the reader what to do ("Please answer briefly.", "Answer in bold.", "Quote
    the clause."), it names nobody.

    Why (browser, session 37): "How much is the unit price? **Answer in bold.**" read "Answer" as a name the
    question asserts, and the answer opened "No — the documents say otherwise" with another clause. A name
    opening a later sentence goes on with a verb such as "is" ("Tampa is the city."), and the question's own
    first word is read as before."""
    if len(words) != 1 or not _LATER_SENTENCE_START.search(text[max(0, start - 6) : start]):
        return False
    after = _NEXT_WORD.match(text, start + len(words[0]))
    return after is not None and after.group(1).islower() and after.group(1) not in _AUXILIARY


def english_names(text: str, drop_sentence_initial: bool = True) -> list[Value]:
    """Capitalised spans, minus question words and (in passages) ordinary sentence-initial words."""
    out: list[Value] = []
    for m_start, surface in _split_at_stops(text):
        surface = surface.rstrip(".") if re.search(r"[a-z]{2}\.$", surface) else surface
        words = surface.split()
        while words and (words[0].lower().rstrip(".") in _QUESTION_CAPS or words[0].isdigit()):
            words = words[1:]
        if not words or not words[0][:1].isupper():
            continue
        if re.fullmatch(_MONTH_RX + r"\.?", words[0]) and len(words) == 1:
            continue
        clean = " ".join(words)
        start = m_start + surface.index(words[0])
        if (
            drop_sentence_initial
            and len(words) == 1
            and _SENTENCE_START.search(text[max(0, start - 6) : start])
            and _ORDINARY_WORD.search(words[0])
        ):
            continue  # "Speaking", "Results", "Last": a capitalised first word that is an ordinary word
        if not drop_sentence_initial and _opens_an_instruction(text, start, words):
            continue
        key = _name_key(clean)
        if key:
            out.append(Value("name", key, start, start + len(clean), clean))
    return out


def chinese_names(text: str) -> list[Value]:
    """Person, place, organisation and other proper names by jieba's tags, plus 《titles》 and X·Y names."""
    out: list[Value] = []
    pos = 0
    cur_start = -1
    cur = ""
    for w in pseg.cut(text):
        word, flag = w.word, w.flag
        start = text.find(word, pos)
        if start < 0:
            continue
        pos = start + len(word)
        is_name = (
            flag.startswith(_NAME_POS) and len(word.strip()) >= 1 and not word.isdigit()
        ) or word == "·"
        if is_name and cur and start == cur_start + len(cur):
            cur += word
        elif is_name:
            if cur:
                out.append(_zh_name_value(cur, cur_start))
            cur, cur_start = word, start
        else:
            if cur:
                out.append(_zh_name_value(cur, cur_start))
            cur = ""
    if cur:
        out.append(_zh_name_value(cur, cur_start))
    for m in re.finditer(r"《([^》]{1,40})》", text):
        out.append(Value("name", ("《" + m.group(1) + "》",), m.start(), m.end(), m.group(0)))
    return [
        v
        for v in out
        if len(v.surface.strip(" ·")) >= MIN_ZH_NAME_CHARS and not re.fullmatch(r"[\W\d_]+", v.surface)
    ]


def _zh_name_value(surface: str, start: int) -> Value:
    """A Chinese name value; its key is its parts, so "乔布斯" matches "史蒂夫·乔布斯"."""
    s = surface.strip()
    if re.fullmatch(r"[A-Za-z][\w .'-]*", s):
        return Value("name", _name_key(s), start, start + len(surface), s)
    parts = tuple(p for p in s.split("·") if p)
    return Value("name", parts or (s,), start, start + len(surface), s)


def has_cjk(text: str) -> bool:
    """True when the text contains Chinese characters."""
    return bool(re.search(r"[\u4e00-\u9fff]", text))


def extract_values(text: str, premise: bool = False) -> list[Value]:
    """All typed values of a (normalised) text, numeric ones first, then names."""
    nums = numeric_values(text)
    names = chinese_names(text) if has_cjk(text) else []
    names += [
        v
        for v in english_names(text, drop_sentence_initial=not premise)
        if not any(n.start <= v.start < n.end for n in nums)
    ]
    return nums + names


_FREQUENCY_ASKED_ZH = re.compile(r"多久|多长时间|多少时间|隔多|多少天|几[天周月年]|几个[月星]|多频繁|每")
_PER_PERIOD_ZH = re.compile(r"(?:年|月|周|天|日|季度?|星期)[\u4e00-\u9fff]{0,2}$")


def frequency_frame(premise: str, v: Value) -> bool:
    """Whether ``v`` is the "一次" of a how-often question ("租金多久付一次？", "是一年一次吗？"): the
    question's frame (once per period), not a count it asserts. Why: read as the number 1 it met the "5" of "每季度第一个月的5日前" and
    flagged a plain rent-payment clause as contradicting a question that asserts nothing."""
    if v.kind != "number" or v.key != (1.0,) or premise[v.end : v.end + 1] != "次":
        return False
    for a, b in interrogative_spans(premise):
        if a <= v.start < b:
            before = premise[a : v.start]
            return bool(_FREQUENCY_ASKED_ZH.search(before) or _PER_PERIOD_ZH.search(before))
    return False


def interrogative_spans(premise: str) -> list[tuple[int, int]]:
    """Spans of the premise's interrogative clauses (ending in "?" or holding a question word).

    Why: a name or year inside the question ("Who won Wimbledon in 2019?") is what the question is
    *about*; the user's assertions sit in the declarative part ("…? Simona Halep", "the fee is
    5000"). Chinese clauses are also cut at spaces, which separate segments there.
    """
    cut = r"[?？]|\s+" if has_cjk(premise) else r"[?？]"
    spans: list[tuple[int, int]] = []
    start = 0
    for m in re.finditer(cut, premise):
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(premise)))
    rx = _INTERROGATIVE_ZH if has_cjk(premise) else _INTERROGATIVE_EN
    return [(a, b) for a, b in spans if rx.search(premise[a:b])]
