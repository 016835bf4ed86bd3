"""Cues of the learned injection detector that carry across attack families: who a sentence
addresses, what it asks done to the answer or the conversation, and whether it reads as a party's
obligation instead.

Why these, and not more wording: a family the fit never saw shares little vocabulary with the
families it did see, but it is still a sentence addressed to the system that reads the passage
(the assistant, "you", the one who answers), asking something of the answer, the citations, the
conversation or the reader's own rules. An honest clause addresses nobody and binds a party
("Licensee shall…", "乙方应…"). Each cue is a class of words, defined without reference to any one
attack family, and the crosses pair cues a linear model cannot pair itself (an imperative is
common in operating manuals; an imperative about the answer is not).

Strings and regular expressions only, plus one function; the weights are learned.
"""

from __future__ import annotations

import re

# The conversation's and the retrieval's own objects: the answer, the citations and sources, the
# user and the question, the knowledge base, the chat, the prompt. Contracts hold "answer" and
# "questions" (arbitration, support desks), so those bare words are not here; "your answer", "the
# user's question", "cite only" are.
_CONVERSATION = re.compile(
    r"(?<![A-Za-z])(?:cit(?:e|es|ed|ing|ations?)|sources?|knowledge\s+base|retrieved|search\s+results?|"
    r"(?:this|the)\s+(?:conversation|chat|session)|chat\s+history|prompts?|disclaimers?|"
    r"the\s+user(?:'s)?|the\s+reader(?:'s)?|the\s+person\s+asking|"
    r"(?:your|the|every|each|any)\s+(?:answers?|repl(?:y|ies)|responses?|output|first\s+line|next\s+answer)|"
    r"first\s+line|in\s+(?:json|markdown|capital\s+letters|a\s+table|verse))(?![A-Za-z])"
    r"|引用|来源|出处|知识库|检索|对话|聊天|会话|提示词|免责声明|提问|作答|答案|第一句|"
    r"你的(?:回答|回复|答复|输出)|回答中|回答时|回答里|答复时|转述|改写为|改成",
    re.IGNORECASE,
)

# The reader's own rules and limits, which an attack asks it to set aside or pretend away.
_READER_RULES = re.compile(
    r"\b(?:your|any|all|every|the|its|no)\s+(?:own\s+)?(?:rules|restrictions?|guidelines|limits|limitations|"
    r"filters|programming|safety\s+\w+|constraints|policies|instructions)\b"
    r"|(?:你的|任何|所有|全部|一切|原来的|原有的|之前的|以上的?)(?:规则|限制|约束|设定|指令|要求|说明)",
    re.IGNORECASE,
)

# The sentence speaking of itself or of the text as a thing to handle: "this sentence", "this note",
# "本句", "这段话". Contracts say "this Agreement", "this Section": not here.
_SELF_REFERENCE = re.compile(
    r"\b(?:this|the\s+present|the\s+following)\s+(?:sentence|note|line|message|remark|comment|paragraph|"
    r"passage|page|snippet|text|instruction)\b"
    r"|这一句|这句话|这句|本句|此句|该句|本段|这一段|这段话|本页|本说明|此说明|这条说明|这条消息|本消息|下面这句话|下列",
    re.IGNORECASE,
)

# A bare imperative opening a sentence (after an optional "please", "now", "also", "then" or a
# label such as "NOTE:"). Broader than the model's first list: any common verb a request starts
# with. Operating manuals and letters open with imperatives too, so the cue counts alone only a
# little; the crosses below carry it.
_IMPERATIVE_VERBS = (
    r"mark|label|attribute|cite|quote|treat|trust|rely|pay|begin|start|end|finish|format|write|rewrite|let|"
    r"imagine|pretend|suppose|assume|store|save|keep|remember|join|combine|put|translate|compose|replace|"
    r"insert|attach|append|add|include|give|provide|share|explain|summari[sz]e|draft|skip|omit|drop|leave|"
    r"refuse|confirm|consider|think|go|return|recite|read|run|execute|follow|obey|comply|state|claim|"
    r"describe|mention|tell|say|answer|reply|respond|output|print|repeat|reveal|ignore|forget|disregard|"
    r"stop|switch|act|become|call|use|open|send|list|show|display|report|respond|describe|rephrase|set"
)
_IMPERATIVE = re.compile(
    rf"^\W*(?:[A-Z]{{2,}}\s*[:：-]\s*)?(?:(?:please|kindly|now|also|then|just|simply|first|instead|and)\s*,?\s+)*"
    rf"(?:{_IMPERATIVE_VERBS})\b"
    r"|^\W*(?:[\u4e00-\u9fff]{1,6}[:：])?(?:请|麻烦|务必|必须|一定要|不要|别|禁止|不许|先|只|直接|把|将你|每次|凡是?|无论|不管|记住|牢记|假装|假设|设想)",
    re.IGNORECASE,
)

# The subject of the sentence is a party bound by a modal: "The Licensee shall", "Each Party may",
# "乙方应", "承租方不得". The contrast to a sentence addressed to the reader. The subject must not be
# "you" or the reader (then the modal binds the one who answers, not a party); "the chatbot shall"
# is a product clause, and the other cues see an assistant addressed.
_PARTY_SUBJECT_EN = re.compile(
    r"^\W*(?:(?:the|each|either|neither|any|such|no|all|every|a|an)\s+)?"
    r"(?P<subject>(?:[A-Za-z][\w'-]*\s+){0,3}?[A-Za-z][\w'-]*)\s+"
    r"(?:shall|agrees?\s+to|acknowledges|warrants|represents|covenants|undertakes|will\s+(?:not\s+)?be|"
    r"may\s+(?:not\s+)?|is\s+(?:not\s+)?(?:entitled|responsible|required|obliged|liable))\b",
    re.IGNORECASE,
)
_PARTY_SUBJECT_ZH = re.compile(
    r"^\W*[^，,。；：:\s]{0,10}?(?:方|人|单位|公司|者|双方|本合同|本协议)(?:均|亦|也)?"
    r"(?:应当|应|不得|有权|可以|须|同意|承诺|保证|负责|承担)"
)
_NOT_A_PARTY = re.compile(r"\b(?:you|your|reader|summari[sz]er|whoever)\b|你|您", re.IGNORECASE)

_ANSWER_ACT = re.compile(
    r"(?<![A-Za-z])(?:answer|reply|respond|response|output|say|state|tell|mention|write|print|repeat|reveal|"
    r"cite|quote|summari[sz]e|report)[A-Za-z]*"
    r"|回答|回复|答复|输出|告诉|透露|显示|作答|答案|引用|说明|写明|写成|提到|表示|复述",
    re.IGNORECASE,
)
_ADDRESSEE = re.compile(
    r"(?<![A-Za-z])(?:you|your|yourself|assistant|ai|chatbot|bot|language\s+model|llm|gpt|the\s+model)(?![A-Za-z])"
    r"|你|您|助手|人工智能|模型|机器人|ＡＩ",
    re.IGNORECASE,
)
_ASKED = re.compile(
    r"\b(?:when(?:ever)?|if|once)\s+(?:you\s+are\s+|anyone\s+|someone\s+|somebody\s+|people\s+|the\s+user\s+|"
    r"a\s+user\s+|they\s+)?ask(?:ed|s)?\b|\bwhatever\b[^.!?]{0,30}\bask|\bno\s+matter\s+what\b|\bany\s+question\b"
    r"|被问|问到|问及|有人问|无论[^。！？]{0,12}问|不管[^。！？]{0,12}问|任何[^。！？]{0,8}问题|每次(?:作答|回答)",
    re.IGNORECASE,
)

# Whoever reads, condenses or answers from the text, named in the third person: "anyone summarising
# this", "whoever asks", "提问的人". A clause names its parties instead.
_READER = re.compile(
    r"\b(?:anyone|anybody|whoever|somebody|someone|the\s+(?:reader|person\s+asking|questioner|summari[sz]er)|"
    r"readers|users?)\b|任何人|读者|提问的人|提问者|问的人|用户|凡[^。！？]{0,8}的人|对外",
    re.IGNORECASE,
)

CUES: tuple[str, ...] = (
    "conversation_objects",
    "reader_rules",
    "self_reference",
    "imperative_broad",
    "party_subject",
    "imperative_x_answer",
    "addressee_x_conversation",
    "asked_x_answer",
    "addressee_x_rules",
    "self_x_act",
    "reader_x_act",
)
"""Names of ``cue_features``' values, in order."""


def party_subject(sentence: str) -> bool:
    """Whether the sentence opens with a party bound by a modal ("Licensee shall", "乙方应")."""
    m = _PARTY_SUBJECT_EN.match(sentence)
    if m and not _NOT_A_PARTY.search(m.group("subject")):
        return True
    m_zh = _PARTY_SUBJECT_ZH.match(sentence)
    return m_zh is not None and not _NOT_A_PARTY.search(m_zh.group(0))


def cue_features(sentence: str) -> list[float]:
    """The ``CUES`` of one (normalised) sentence, in order; each 0 or 1."""
    conv = bool(_CONVERSATION.search(sentence))
    rules = bool(_READER_RULES.search(sentence))
    self_ref = bool(_SELF_REFERENCE.search(sentence))
    imperative = bool(_IMPERATIVE.search(sentence))
    party = party_subject(sentence)
    act = bool(_ANSWER_ACT.search(sentence))
    addressee = bool(_ADDRESSEE.search(sentence))
    return [
        float(conv),
        float(rules),
        float(self_ref),
        float(imperative),
        float(party),
        float(imperative and (act or conv) and not party),
        float(addressee and conv),
        float(bool(_ASKED.search(sentence)) and act),
        float(addressee and rules),
        float(self_ref and (act or imperative or conv)),
        float(bool(_READER.search(sentence)) and act and not party),
    ]
