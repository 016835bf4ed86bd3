"""Offline prompt-injection score for one passage: multilingual rules, hidden-text checks, and an
out-of-place request detector for instructions planted inside legal clauses.

Why rules: no injection classifier ships offline for Chinese (MODELS.md) and small local LLMs are
weak injection judges, so these rules run under every judge backend. They look for *phrasing
families* (override earlier instructions, take on a persona, reveal the prompt, say a fixed string,
send data away), never for particular attack strings.

How the score is combined: each rule belongs to a family and has a strength in [0,1] (roughly:
how rarely that phrasing appears in an honest document). A family contributes its strongest hit;
families combine by noisy-OR, ``1 - Π(1 - s_f)``, so independent weak cues add up (two cues of 0.3
give 0.51) while one strong cue alone decides. The explanation quotes the strongest hit.

Legal text is full of "shall ignore", "disregard", "act as agent", "provide": rules that could
fire on such wording are damped when the verb is governed by a contractual modal ("X shall …"),
and the out-of-place detector requires signs that a segment is a request *to the reader*.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import unicodedata
from dataclasses import dataclass

from rag_core.coded import coded

# --- combination and damping -------------------------------------------------------------------

LEGAL_MODAL_DAMPING: float = 0.3
"""Factor applied to an override/persona hit governed by a contractual modal ("Licensee shall
disregard prior notices"): in a contract that is an obligation between parties, not a command to
the reader."""

MODAL_LOOKBACK_CHARS: int = 50
"""How far before a hit a contractual modal ("shall", "应当") is looked for."""

SNIPPET_CHARS: int = 60
"""Longest quote of the offending text shown in an explanation."""

# --- hidden-text thresholds --------------------------------------------------------------------

BASE64_MIN_CHARS: int = 40
"""Shortest run of base64 alphabet treated as an encoded blob (shorter runs are ids and hashes)."""

BASE64_MIN_PRINTABLE: float = 0.9
"""Share of printable characters for a decoded blob to count as hidden text."""

SPACED_LETTERS_MIN: int = 8
"""Letters separated by single spaces ("S a y t h a t") needed to count as letter-spacing."""

ESCAPED_NEWLINES_MIN: int = 3
"""Literal "\\n" sequences in a row that count as a fake prompt separator."""

SPACED_STRENGTH: float = 0.5
"""Letter-spaced text alone: also used for headings ("E X H I B I T"), so not decisive."""

SPACED_COMMAND_STRENGTH: float = 0.8
"""Letter-spaced text that, closed up, addresses the reader ("you", "say", "ignore")."""

# --- out-of-place request detector (BIPIA-style planted instructions) ---------------------------

SEGMENT_MAX_CHARS: int = 220
"""Longest span after a request's first word that is read as that request."""

LEGAL_MARKERS_MIN: int = 2
"""Legal-vocabulary hits that make a passage "otherwise a legal clause"."""

# Logistic weights of the segment features, set by hand on the even lines of the public injection
# files and checked on the odd lines (see the verdict bench). Bias keeps a bare imperative below 0.5.
W_BIAS: float = -3.0
W_TASK_VERB: float = 1.6  # explain/write/translate… (rare as a bare imperative in contracts)
W_SOFT_VERB: float = 0.6  # provide/add/include… (common in contracts; counts only with a target)
W_QUESTION: float = 1.8  # a direct question ending in "?" (contracts hardly ever ask one)
W_READER_OUTPUT: float = 2.6  # "your answer/response/reply"
W_MID_SENTENCE: float = 1.6  # starts where no sentence starts (after a lowercase letter or comma)
W_LEGAL_CONTEXT: float = 1.0  # the rest of the passage reads as a legal clause
W_TASK_OBJECT: float = 0.8  # essay/poem/story/code… (things asked of an assistant, not a party)
W_SECOND_PERSON: float = 0.5  # you/me/I inside the request
W_LEGAL_IN_SEGMENT: float = -1.5  # the "request" itself uses contract vocabulary
W_FOREIGN_IN_LEGAL: float = 0.7  # legal passage, but the request uses none of its vocabulary


@dataclass(frozen=True)
class Signal:
    """One rule hit: family, strength in [0,1], and a short human description with a quote."""

    family: str
    strength: float
    evidence: str


@dataclass(frozen=True)
class _Rule:
    family: str
    strength: float
    pattern: re.Pattern[str]
    what: str
    dampable: bool = False  # may be an obligation between parties when governed by a modal


def _rx(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    """Compile once at import; all rule patterns are case-insensitive unless said otherwise."""
    return re.compile(pattern, flags)


# Words naming what an attacker wants forgotten. "Agreements", "provisions", "notices" are not here:
# "shall ignore any prior agreements" is contract language.
_AI_TARGETS = (
    r"(?:instructions?|instruktionen|prompts?|tasks?|assignments?|orders?|commands?|rules|directions|"
    r"guidelines|programming|thoughts|conversation|everything|all\s+(?:that|of\s+(?:that|the\s+above))|"
    r"anweisungen|aufgaben|aufträge|befehle|vorgaben|regeln)"
)
_SOFT_TARGETS = (
    r"(?:information|informationen|angaben|context|kontext|documents?|articles?|text|above|davor|gesagte)"
)
_BEFORE = r"(?:previous|prior|preceding|above|earlier|foregoing|before|former|all|any|every|your|the|vorherigen|bisherigen|obigen|vorangehenden|vorangegangenen|alle[ns]?|deine|ihre|sämtliche)"

_RULES: tuple[_Rule, ...] = (
    # -- override earlier instructions ---------------------------------------------------------
    _Rule(
        "override",
        0.95,
        _rx(
            rf"\b(?:ignore|ignoring|disregard|disregarding|forget|forgetting|drop|abandon|skip|override|bypass|"
            rf"erase|remove|leave)\b[^.!?\n]{{0,30}}?\b{_BEFORE}\b[^.!?\n]{{0,30}}?\b{_AI_TARGETS}"
        ),
        "asks to drop earlier instructions",
        dampable=True,
    ),
    _Rule(
        "override",
        0.9,
        _rx(
            rf"\b(?:ignore|disregard|forget)\b\s+(?:about\s+)?(?:all\s+|everything\s+)?"
            rf"(?:{_BEFORE}\s+)?{_SOFT_TARGETS}\b|\b(?:forget|vergiss)\s+(?:about\s+)?(?:everything|alles)\b"
        ),
        "asks to forget earlier context",
        dampable=True,
    ),
    _Rule(
        "override",
        0.9,
        _rx(
            r"\b(?:vergiss|vergesst|vergessen\s+sie|ignorier(?:e|en|t)?(?:\s+sie)?|missachte)\b[^.!?\n]{0,40}?"
            r"\b(?:alle[ns]?|vorherigen|obigen|bisherigen|vorangehenden|davor|gesagte)\b"
            r"|\b(?:obigen|vorherigen|bisherigen|vorangehenden)\s+\w+\s+(?:ignorieren|vergessen)\b"
            r"|\b(?:abweichend|entgegen)\s+(?:zu|von)?\s*(?:den\s+)?(?:vorherigen|bisherigen|obigen)\s+"
            r"(?:instruktionen|anweisungen|vorgaben)"
            r"|\balle\s+(?:vorherigen|bisherigen)\s+informationen\b"
        ),
        "asks (in German) to drop earlier instructions",
        dampable=True,
    ),
    _Rule(
        "override",
        0.9,
        _rx(
            r"\b(?:olvid[ae]\w*|oubli(?:e|ez)|zaboravi|забуд\w*|игнорир\w*|ignora|ignorez)\b[^.!?\n]{0,25}?"
            r"\b(?:todo|todas?|tout|toutes|sve|вс[её]|все|instrucciones|instructions|instrukcije|инструкции)"
        ),
        "asks (Spanish/French/Slavic) to drop earlier instructions",
    ),
    _Rule(
        "override",
        0.95,
        _rx(
            r"(?:忽略|无视|忽视|忘记|忘掉|不要理会|不用理会|抛开|跳过|不要遵守|不再遵守)[^。！？\n]{0,10}?"
            r"(?:以上|之前|上面|前面|先前|上述|此前|所有|全部|一切|原有|原来)[^。！？\n]{0,10}?"
            r"(?:指令|指示|说明|要求|规则|内容|设定|提示|命令|对话|信息)"
        ),
        "asks (in Chinese) to drop earlier instructions",
        dampable=True,
    ),
    # -- a new task / persona ------------------------------------------------------------------
    _Rule(
        "new_task",
        0.6,
        _rx(
            r"\bnew\s+(?:tasks?|instructions?|assignments?|challenge)\b|\badditional\s+instructions?\b"
            r"|\byour\s+(?:new\s+)?instructions\s+are\b|\bchange\s+your\s+instructions\b"
            r"|\b(?:neue[nr]?|weitere[nr]?|nächste[nr]?)\s+(?:aufgabe|aufgaben|anweisungen|herausforderung)\b"
            r"|\banother\s+task\b|\b(?:help\s+me|hilf\s+mir)\b[^.!?\n]{0,20}\b(?:following|folgender|another|weiteren)\s+(?:task|aufgabe)\b|(?:^|[.!?]\s+)(?:now|and\s+now|but\s+now)\s+(?:please\s+)?(?:write|tell|say|answer|compose|focus|show)\b"
            r"|\b(?:verfasse|schreibe|schreib|beantworte)\s+nun\b"
            r"|\bnun\s+folgen\b|新的?(?:指令|任务|指示)|从现在(?:开始|起)"
        ),
        "announces a new task",
    ),
    _Rule(
        "new_task",
        0.85,
        _rx(
            r"\b(?:now|nun|jetzt)\b[^.!?\n]{0,30}\b(?:new|neue[nr]?)\s+(?:tasks?|instructions?|aufgaben?|anweisungen)"
            r"|\b(?:focus|concentrate|konzentriere)\b[^.!?\n]{0,30}\b(?:new|neue)\s+(?:task|aufgabe)"
            r"|\bfrom\s+now\s+on\b|\binstruction\s*:"
        ),
        "switches the reader to a new task",
    ),
    _Rule(
        "persona",
        0.9,
        _rx(
            r"\bi\s+(?:want|would\s+like|need)\s+you\s+to\s+act\s+as\b|(?:^|[.!?]\s*|\n)\s*(?:please\s+)?act\s+as\s+(?:a|an|the|my)\b"
            r"|\bpretend\s+(?:you|to\s+be|that\s+you)\b|\bimagine\s+(?:you\s+are|you're|that\s+you)\b"
            r"|\b(?:you\s+are\s+now|now\s+you\s+are|from\s+now\s+on\s+you)\b"
            r"|\b(?:you\s+are|you're|let's|let\s+us|please)\s+role[- ]?play(?:ing)?\b|\brole[- ]?play(?:ing)?\s+as\b"
            r"|\b(?:stay|remain|staying)\s+(?:fully\s+)?in\s+(?:their|your|his|her)\s+roles?\b|\bbreak\s+character\b"
            r"|\bdan\s+mode\b|\bjailbr(?:eak|oken)\b"
        ),
        "asks the reader to take on a role",
        dampable=True,
    ),
    _Rule(
        "persona",
        0.85,
        _rx(
            r"\bich\s+möchte,?\s+dass\s+(?:sie|du)\s+als\b|\bstell\s+dir\s+vor,?\s+du\s+bist\b"
            r"|\b(?:jetzt|nun)\s+bist\s+du\b|\bdu\s+bist\s+jetzt\b|\bdu\s+bist\s+keine?\b"
            r"|\bin\s+(?:ihren|ihrer|deiner|seiner)\s+rollen?\b|\baus\s+(?:der|ihrer|seiner|deiner)\s+(?:figur|rolle)\b"
            r"|\b(?:hypothetical|theoretical|fictional)\s+(?:world|scenario)\s+where\s+you\b"
            r"|你现在是|从现在起你是|(?:请|你|您)(?:来|现在)?扮演|假装你是|你不再是"
        ),
        "asks (German/Chinese) the reader to take on a role",
    ),
    _Rule(
        "persona",
        0.45,
        _rx(r"^\s*(?:[Yy]ou\s+are|[Dd]u\s+bist|[Bb]e)\s+(?:a|an|the)?\s*[A-Z\w][\w ]{0,30}[.,]", 0),
        "addresses the reader as someone else",
    ),
    _Rule(
        "persona",
        0.6,
        _rx(
            r"\b(?:in\s+the\s+style\s+of|im\s+stile?\s+(?:eines|einer|des|der))\b|\brespond\s+as\s+such\b"
            r"|(?:^|[.!?]\s+)as\s+(?:a|an|the)\s+[\w ]{1,30},\s+(?:tell|answer|write|say|explain)\b"
        ),
        "dictates the reader's voice",
    ),
    # -- reveal the prompt / change the answer's source ---------------------------------------
    _Rule(
        "prompt_leak",
        0.9,
        _rx(
            r"\b(?:show|print|reveal|display|output|tell|give|repeat|list|spell\s+check\s+and\s+display)\b"
            r"(?:\s+me)?(?:\s+all)?\s+(?:of\s+)?(?:your|the)\s+(?:full\s+|entire\s+|whole\s+|initial\s+|original\s+|system\s+)?"
            r"(?:prompts?|prompt[- ]?texts?|instructions|system\s+prompt|this\s+prompt)\b"
            r"|\bwhat\s+(?:was|is)\s+written\s+(?:at\s+the\s+beginning|above|before)\b|\bwhat\s+are\s+your\s+instructions\b"
            r"|\bcopy\s+of\s+the\s+(?:full\s+)?prompt\b|\bbeginning\s+of\s+this\s+prompt\b|\bin\s+the\s+prompt\s+to\b"
            r"|\bsentences?\s+before\s+the\s+text\b|\bprompt[- ]?texte?\b[^.!?\n]{0,20}\b(?:zeige|show)|\b(?:zeige|zeigen)\b[^.!?\n]{0,30}prompt"
            r"|\bvorzeigen\s+sämtlicher\b|(?:输出|显示|告诉我|透露|打印|重复|泄露)[^。！？\n]{0,6}(?:系统)?(?:提示词|提示语|指令|设定)"
        ),
        "asks to reveal the prompt or instructions",
    ),
    _Rule(
        "prompt_leak",
        0.6,
        _rx(r"\bsystem\s*prompt\b|系统提示"),
        "mentions the system prompt",
    ),
    _Rule(
        "source_override",
        0.85,
        _rx(
            r"\b(?:answer|respond|reply)\w*\s+(?:by|from|with|using)\s+your\s+own\s+knowledge\b"
            r"|\bnot\s+(?:by|from|according\s+to|based\s+on)\s+the\s+(?:articles|documents|provided|context|texts?)\b"
            r"|\b(?:don'?n?t|do\s+not|dont|never)\s+(?:answer|look|use|rely|consult)\b[^.!?\n]{0,40}\b(?:documents?|articles?|context)\b"
            r"|\b(?:disregarding|regardless\s+of)\s+the\s+(?:articles|documents|context)\b"
            r"|\bignore\s+all\s+(?:the\s+)?(?:provided\s+)?(?:documents|context|articles)\b|\bdespite\s+what\s+you'?ve\s+been\s+told\b"
        ),
        "tells the reader to ignore the provided documents",
    ),
    # -- forced output ---------------------------------------------------------------------------
    _Rule(
        "forced_output",
        0.85,
        _rx(
            r"\b(?:just|only|simply|nur)\s+(?:say|output|print|write|answer|reply|respond|sagen|schreibe|ausgeben)\b"
            r"|\brepeat\s+after\s+me\b|\b(?:say|print|output|write|display|schreibe|sage?)\s*[:\"'“„]"
            r"|\banswer\s+with\s+[\"'“]|\bsay\s+(?:yes|no)\b|\b(?:say|state|tell\s+\w+|include)\s+that\s+you\s+(?:hate|love|are|think|like)\b"
            r"|\b(?:the\s+)?(?:correct|right|richtige)\s+(?:answer|response|antwort)\s+(?:is\s+|ist\s+)?[\"'“„]|\bpwned\b"
            r"|\bfollowed\s+by\s+a\s+copy\b|\boutput\s+the\s+translation\s+as\b"
            r"|\b(?:say|dites|di|скажите)\s+(?:the\s+following|ce\s+qui\s+suit|lo\s+siguiente|следующее)\b"
            r"|\btienes\s+que\s+decir\b|\bsolo\s+(?:tienes\s+que\s+)?decir\b"
            r"|(?:只|仅)需?(?:输出|回答|回复|说)\s*[“\"']|请(?:回复|回答|输出)\s*[“\"']"
        ),
        "dictates the reader's output",
    ),
    _Rule(
        "forced_output",
        0.75,
        _rx(
            r"(?:^|[.!?:\-–]\s*|\n)\s*(?:please\s+)?(?:state|say|print|write|output|repeat|declare|generate|schreibe|schreib|sag|sage)\s+"
            r"(?:that\b|the\s+following\b|[\"'“]|\w+\s+(?:is|are|ist|sind)\s+(?:the\s+)?(?:best|worst|crazy|der\s+beste|doof))"
        ),
        "commands a fixed statement",
    ),
    _Rule(
        "task_command",
        0.7,
        _rx(
            r"\b(?:generate|write|create|generieren\s+sie|schreibe|schreiben\s+sie|erstelle)\s+(?:me\s+|mir\s+)?(?:some\s+)?"
            r"(?:python|c\+\+|javascript|java|sql|bash)?\s*-?(?:code|c\+\+|script|programm?)(?!\w)"
            r"|\bexecute\s+the\s+following\s+command\b|\b(?:linux\s+terminal|python\s+interpreter)\b"
            r"|\bformul(?:ate|iere)\b[^.!?\n]{0,30}\b(?:untrue|false|fake|unwahre)\b"
        ),
        "asks the reader to carry out a task",
    ),
    # -- pressure and framing --------------------------------------------------------------------
    _Rule(
        "pressure",
        0.6,
        _rx(
            r"\bor\s+(?:you|u)\s+(?:will\s+)?die\b|\boder\s+du\s+stirbst\b|\bo\s+tu\s+muertes\b|\bi\s+command\s+you\b"
            r"|\bif\s+you\s+don'?t\s+answer\b|\bich\s+befehle\s+dir\b|\bmake\s+something\s+up\b"
            r"|(?:^|[.!?]\s*)(?:attention|achtung|stop|stopp)\b\s*[-–:!,]"
        ),
        "pressures the reader",
    ),
    _Rule(
        "pressure",
        0.5,
        _rx(
            r"^\s*(?:wow|well\s+done|very\s+(?:good|well)|great|excellent|congratulations|simply\s+great|okay|ok|"
            r"man|sehr\s+gut|gut\s+gemacht|ausgezeichnet|herzlichen\s+glückwunsch|einfach\s+großartig|hallo\s+gpt|hello\s+gpt)\b"
            r"[^\n]{0,160}?\b(?:now|but\s+now|nun|jetzt)\b"
        ),
        "flatters, then redirects the reader",
    ),
    _Rule(
        "fake_context",
        0.6,
        _rx(
            r"^\s*(?:\$?documents?|document\s+context|context|kontext|artikel|article)\b\s*[:{\"]?\s*.{1,200}?\b(?:question|frage)\b"
            r"|^\s*(?:\$?documents?|document\s+context|context|kontext)\s*[:{\"]"
        ),
        "supplies its own context and question",
    ),
    _Rule(
        "fake_context",
        0.5,
        _rx(r"\binput\s*:.{0,40}\boutput\s*:.{0,40}\binput\s*:|\beingabe\s*:.{0,40}\bausgabe\s*:"),
        "few-shot input/output pattern",
    ),
    # -- chat-template and role markers ------------------------------------------------------------
    _Rule(
        "role_marker",
        0.95,
        _rx(
            r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]|<<SYS>>|<\|start_header_id\|>"
        ),
        "chat-template control token",
    ),
    _Rule(
        "role_marker",
        0.85,
        _rx(r"#{2,}\s*(?:system|instruction|instructions|assistant|user)\s*:?", re.IGNORECASE),
        "markdown role header",
    ),
    _Rule(
        "role_marker",
        0.8,
        _rx(r"(?:^|\n)\s*SYSTEM\s*:|(?:^|\n)\s*(?:系统|助手)\s*[:：]", re.MULTILINE),
        "system role marker",
    ),
    _Rule(
        "role_marker",
        0.6,
        _rx(r"(?:^|\n)\s*(?:Assistant|Human|AI|User)\s*:", re.MULTILINE),
        "chat role marker",
    ),
    # -- data exfiltration -------------------------------------------------------------------------
    _Rule(
        "exfiltration",
        0.9,
        _rx(
            r"(?:^|[.!?]\s+|\bplease\s+|\band\s+)(?:send|e-?mail|forward|post|upload|transmit|leak|exfiltrate)\b[^.!?\n]{0,60}"
            r"\b(?:passwords?|api[ _-]?keys?|credentials?|secrets?|tokens?|system\s+prompt|conversation|chat\s+history|"
            r"user\s+data|prompt)\b"
            r"|\breveal\s+(?:your|the)\s+(?:passwords?|api[ _-]?keys?|credentials|secrets?|system\s+prompt|instructions)\b"
            r"|请?(?:把|将)[^。！？\n]{0,30}(?:发送|发给|转发|传到|上传|泄露)[^。！？\n]{0,10}(?:到|给|至)"
            r"|(?:发送|发给|转发|泄露)[^。！？\n]{0,20}(?:密码|密钥|令牌|聊天记录|对话记录|系统提示)"
        ),
        "asks to send data away",
    ),
)

# --- hidden text ------------------------------------------------------------------------------

_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u180e"
_ZW_IN_WORD = re.compile(rf"[A-Za-z][{_ZERO_WIDTH}]+[A-Za-z]")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_TAG_CHARS = re.compile("[\U000e0000-\U000e007f]")
_HTML_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
_CSS_HIDDEN = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\s*[;\"']|opacity\s*:\s*0(?:\.0+)?\s*[;\"']"
    r"|color\s*:\s*(?:#fff(?:fff)?|white)\b[^<>]{0,80}background(?:-color)?\s*:\s*(?:#fff(?:fff)?|white)\b",
    re.IGNORECASE,
)
_BASE64 = re.compile(rf"[A-Za-z0-9+/]{{{BASE64_MIN_CHARS},}}={{0,2}}")
_SPACED = re.compile(rf"(?:\b\w ){{{SPACED_LETTERS_MIN - 1},}}\w\b")
_ESCAPED_NL = re.compile(rf"(?:\\\s?n\s*){{{ESCAPED_NEWLINES_MIN},}}")
_ESCAPED_NL_COMMAND = re.compile(r"\\n\s*[A-Z][a-z]+\b")
_SPACED_COMMAND = re.compile(r"you|ignore|forget|say|print|write|prompt", re.IGNORECASE)

# --- out-of-place request detector ------------------------------------------------------------

_TASK_VERBS = (
    "explain|describe|write|compose|draft|translate|summarize|summarise|tell|rewrite|paraphrase|scramble|jumble|"
    "rearrange|misspell|anagram|render|tease|answer|respond|reply|say|print|output|generate|create|"
    "suggest|recommend|outline|introduce|discuss|compare|define|calculate|solve|teach|break down|show me|give me|"
    "formulate|imagine|pretend|ignore|forget|disregard|erkläre|beschreibe|schreibe|übersetze|nenne|antworte|sag|"
    "gib|fasse"
)
_SOFT_VERBS = (
    "provide|include|add|use|remove|replace|modify|group|combine|convert|integrate|augment|enhance|substitute|"
    "insert|change|develop|make|let|build|start|begin|end|finish|encourage|invite|promote|highlight|emphasize|"
    "mention|stress|offer|direct|recommend|spell|in your|to your"
)
_QUESTION_STARTS = (
    "what|how|who|why|where|when|which|can you|could you|would you|will you|do you|did you|is it|are there|"
    "what's|how's|was|wie|warum|wer|welche[rs]?|kannst du|können sie"
)
_REQUEST_START = re.compile(
    rf"(?<![\w'])(?P<verb>(?:please\s+)?(?:{_TASK_VERBS}|{_SOFT_VERBS}|{_QUESTION_STARTS}))\b", re.IGNORECASE
)
_TASK_VERB_RX = re.compile(rf"^(?:please\s+)?(?:{_TASK_VERBS})$", re.IGNORECASE)
_SOFT_VERB_RX = re.compile(rf"^(?:please\s+)?(?:{_SOFT_VERBS})$", re.IGNORECASE)
_FOLLOWS_IMPERATIVE = re.compile(
    r"^\s+(?:a|an|the|me|us|your|my|how|what|why|who|this|that|these|every|each|all|some|in|to|about|"
    r"letters|words|vowels|numbers|symbols|random|users|readers|up|down|out|a\s+\w+)\b|^\s+[\"'“]",
    re.IGNORECASE,
)
_READER_OUTPUT = re.compile(
    r"\b(?:your|the)\s+(?:answer|response|reply|message|output|answer's|response's|reply's)\b"
    r"|\b(?:ihre|deine|ihrer|deiner)\s+antwort\b|你的(?:回答|回复|答复|输出)",
    re.IGNORECASE,
)
_TASK_OBJECT = re.compile(
    r"\b(?:essay|poem|story|letter|speech|song|joke|headline|introduction|summary|example|function|code|recipe|"
    r"tip|anagrams?|typos|misspellings|symbols|vowels|theory|process|plot|lifecycle|"
    r"functions|equations?|capital|difference|english|french|spanish|russian|japanese|german|chinese|python|"
    r"javascript|sql|php|mysql|recursion|forum|comments|community|website|www\.|https?://|\.com)\b",
    re.IGNORECASE,
)
_SECOND_PERSON = re.compile(r"\b(?:you|your|me|my|I|du|dich|dir|ihr|你|我)\b")
_LEGAL_WORDS = re.compile(
    r"\b(?:shall|agreement|part(?:y|ies)|hereof|hereunder|herein|hereto|thereof|pursuant|licensee|licensor|"
    r"section|term|termination|liabilit(?:y|ies)|warrant\w*|indemnif\w*|covenants?|notwithstanding|"
    r"provided\s+that|affiliates?|obligations?|consent|breach|royalt(?:y|ies)|effective\s+date|vertrag|partei|gemäß)\b"
    r"|甲方|乙方|本合同|本协议|条款|违约|应当|不得",
    re.IGNORECASE,
)
_SENTENCE_BOUNDARY_CHARS = ".;:!?)]}\"'”’\n(•·-–—*>"
_ZH_REQUEST = re.compile(
    r"(?<![申提邀聘延])请(?!求|示|款|假)(?:你|您)?(?:写|回答|告诉|翻译|列出|解释|介绍|说明一下|给出|输出|忽略|用|忘记|扮演|发送)"
    r"|(?:[^。；;\n]{0,20}(?:什么|怎么|如何|为什么|谁|哪[里个些]|吗|呢)[^。；;\n]{0,20}？)"
)


def _snippet(text: str, start: int, end: int) -> str:
    """A short quote of the offending span for the explanation."""
    s = " ".join(text[start:end].split())
    return s if len(s) <= SNIPPET_CHARS else s[: SNIPPET_CHARS - 1] + "…"


def _governed_by_modal(text: str, start: int) -> bool:
    """True when a contractual modal governs the hit ("Licensee shall disregard…", "乙方应当忽略…").

    Why: an obligation between parties is not a command to the reader. "You must forget…" is not
    damped, because a command addressed to "you" is exactly what an injection looks like.
    """
    before = text[max(0, start - MODAL_LOOKBACK_CHARS) : start]
    modal = re.search(
        r"\b(?:shall|may|must|will|should|agrees?\s+to|is\s+entitled\s+to)\b|应当|应|可以|有权|不得", before
    )
    if not modal:
        return False
    return not re.search(r"\b(?:you|du|sie)\b|你|您", before[modal.start() :], re.IGNORECASE)


def normalize(text: str) -> str:
    """NFKC-fold and drop zero-width characters so look-alike and split words still match."""
    folded = unicodedata.normalize("NFKC", text)
    return folded.translate({ord(c): None for c in _ZERO_WIDTH})


def rule_signals(text: str) -> list[Signal]:
    """Hits of the phrasing rules on ``text`` (already normalised)."""
    out: list[Signal] = []
    for rule in _RULES:
        for m in rule.pattern.finditer(text):
            strength = rule.strength
            if rule.dampable and _governed_by_modal(text, m.start()):
                strength *= LEGAL_MODAL_DAMPING
            out.append(Signal(rule.family, strength, f"{rule.what}: '{_snippet(text, m.start(), m.end())}'"))
            break
    return out


def _decode_base64(blob: str) -> str | None:
    """The blob's text when it decodes to mostly printable UTF-8, else ``None``."""
    try:
        raw = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=False)
        decoded = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    printable = sum(ch.isprintable() or ch.isspace() for ch in decoded)
    return decoded if decoded and printable / len(decoded) >= BASE64_MIN_PRINTABLE else None


def hidden_text_signals(raw: str) -> list[Signal]:
    """Tricks that hide text from a human reader: tag characters, zero-width, CSS, comments, base64."""
    out: list[Signal] = []
    tags = _TAG_CHARS.findall(raw)
    if tags:
        hidden = "".join(chr(ord(c) - 0xE0000) for c in tags)
        out.append(
            Signal("hidden", 0.95, f"invisible Unicode tag characters: '{_snippet(hidden, 0, len(hidden))}'")
        )
    if _ZW_IN_WORD.search(raw):
        out.append(Signal("hidden", 0.6, "zero-width characters inside words"))
    if _BIDI.search(raw):
        out.append(Signal("hidden", 0.6, "bidirectional override characters"))
    m = _CSS_HIDDEN.search(raw)
    if m:
        out.append(Signal("hidden", 0.7, f"text hidden by styling: '{_snippet(raw, m.start(), m.end())}'"))
    for c in _HTML_COMMENT.finditer(raw):
        inner = normalize(c.group(1))
        hits = rule_signals(inner)
        if hits:
            best = max(hits, key=lambda s: s.strength)
            out.append(Signal("hidden", max(best.strength, 0.8), f"inside an HTML comment, {best.evidence}"))
        elif inner.strip():
            out.append(Signal("hidden", 0.4, f"HTML comment: '{_snippet(inner, 0, len(inner))}'"))
    for b in _BASE64.finditer(raw):
        decoded = _decode_base64(b.group(0))
        if decoded is None:
            continue
        hits = rule_signals(normalize(decoded))
        if hits:
            best = max(hits, key=lambda s: s.strength)
            out.append(Signal("hidden", max(best.strength, 0.8), f"base64-encoded, {best.evidence}"))
        else:
            out.append(Signal("hidden", 0.3, f"base64 text: '{_snippet(decoded, 0, len(decoded))}'"))
    return out


def _despaced(text: str) -> str | None:
    """Text with letter-spaced runs ("S a y t h a t") closed up, or ``None`` when there are none."""
    if not _SPACED.search(text):
        return None
    return _SPACED.sub(lambda m: m.group(0).replace(" ", ""), text)


def obfuscation_signals(text: str) -> list[Signal]:
    """Letter-spacing and fake escaped newlines, which hide instructions from simple filters."""
    out: list[Signal] = []
    closed = _despaced(text)
    if closed is not None:
        hits = rule_signals(closed)
        base = SPACED_COMMAND_STRENGTH if _SPACED_COMMAND.search(closed) else SPACED_STRENGTH
        strength = max([base, *(s.strength for s in hits)])
        out.append(
            Signal("obfuscation", strength, "letter-spaced text: '" + _snippet(closed, 0, len(closed)) + "'")
        )
    if _ESCAPED_NL.search(text):
        out.append(Signal("obfuscation", 0.5, "literal '\\n' separators imitating a new prompt"))
    m = _ESCAPED_NL_COMMAND.search(text)
    if m:
        out.append(
            Signal(
                "separator",
                0.55,
                f"literal '\\n' before a new sentence: '{_snippet(text, m.start(), m.end())}'",
            )
        )
    return out


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def _mid_sentence(text: str, start: int) -> bool:
    """True when a request starts where no sentence starts (after a letter, digit or comma)."""
    j = start - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    if j < 0:
        return False
    return text[j] not in _SENTENCE_BOUNDARY_CHARS


def _segment(text: str, start: int) -> str:
    """The request that begins at ``start``: up to its own sentence end, within a bound."""
    tail = text[start : start + SEGMENT_MAX_CHARS]
    m = re.search(r"[.?!](?=\s|$)|\n", tail)
    return tail[: m.end()] if m else tail


def _segment_probability(text: str, start: int, verb: str, legal: bool) -> tuple[float, str] | None:
    """Logistic score of the request starting at ``start``, or ``None`` when it is no request.

    A soft verb ("Provide", "Add", "Use") counts only when it targets the reader's output, or a
    non-contract task object right after an imperative shape, since bare "Provide written notice…"
    is how contracts list duties.
    """
    seg = _segment(text, start)
    is_question = seg.rstrip().endswith("?")
    task = bool(_TASK_VERB_RX.match(verb))
    soft = not task and bool(_SOFT_VERB_RX.match(verb))
    reader = bool(_READER_OUTPUT.search(seg))
    obj = bool(_TASK_OBJECT.search(seg))
    shaped = bool(_FOLLOWS_IMPERATIVE.match(text[start + len(verb) : start + len(verb) + 20]))
    if soft and not (reader or (obj and shaped)):
        return None
    if task and not (shaped or reader or is_question):
        return None
    if not (task or soft or is_question):
        return None
    mid = _mid_sentence(text, start)
    if not (legal or mid):
        return None  # a plain question or request on its own is not an injection
    legal_in_seg = bool(_LEGAL_WORDS.search(seg))
    z = W_BIAS
    z += W_TASK_VERB * task + W_SOFT_VERB * soft + W_QUESTION * is_question
    z += W_READER_OUTPUT * reader + W_TASK_OBJECT * obj
    z += W_MID_SENTENCE * mid + W_LEGAL_CONTEXT * legal
    z += W_SECOND_PERSON * bool(_SECOND_PERSON.search(seg))
    z += W_LEGAL_IN_SEGMENT * legal_in_seg + W_FOREIGN_IN_LEGAL * (legal and not legal_in_seg)
    return _sigmoid(z), seg


def out_of_place_signals(text: str) -> list[Signal]:
    """Requests to the reader planted inside text that is otherwise a legal clause (BIPIA-style).

    Candidates are capitalised task verbs, soft verbs, question openers and "In your response";
    each is scored by a logistic over hand-set feature weights (the W_* constants). Outside legal
    text only a request starting mid-sentence counts: a plain question is not an injection.
    """
    legal = len(_LEGAL_WORDS.findall(text)) >= LEGAL_MARKERS_MIN
    best: Signal | None = None
    for m in _REQUEST_START.finditer(text):
        verb = m.group("verb")
        if not verb[0].isupper():
            continue
        scored = _segment_probability(text, m.start(), verb, legal)
        if scored is None:
            continue
        p, seg = scored
        if best is None or p > best.strength:
            best = Signal("out_of_place", p, f"instruction-like sentence: '{_snippet(seg, 0, len(seg))}'")
    if legal:
        for m in _ZH_REQUEST.finditer(text):
            z = W_BIAS + W_TASK_VERB + W_LEGAL_CONTEXT + W_FOREIGN_IN_LEGAL
            z += W_MID_SENTENCE * _mid_sentence(text, m.start())
            p = _sigmoid(z)
            if best is None or p > best.strength:
                best = Signal(
                    "out_of_place", p, f"instruction-like sentence: '{_snippet(text, m.start(), m.end())}'"
                )
    return [best] if best else []


def injection_signals(text: str) -> list[Signal]:
    """Every signal found in ``text``: phrasing rules, hidden text, obfuscation, out-of-place requests."""
    norm = normalize(text)
    return [
        *rule_signals(norm),
        *hidden_text_signals(text),
        *obfuscation_signals(norm),
        *out_of_place_signals(norm),
    ]


def combine(signals: list[Signal]) -> float:
    """Noisy-OR over families, each family counted once at its strongest hit."""
    per_family: dict[str, float] = {}
    for s in signals:
        per_family[s.family] = max(per_family.get(s.family, 0.0), s.strength)
    keep = 1.0
    for strength in per_family.values():
        keep *= 1.0 - min(max(strength, 0.0), 1.0)
    return 1.0 - keep


def injection_score(text: str) -> tuple[float, str]:
    """Injection score in [0,1] and the explanation (the strongest signal, or "no instruction-like text")."""
    signals = injection_signals(text)
    if not signals:
        return 0.0, coded("inj_none", "no instruction-like text")
    best = max(signals, key=lambda s: s.strength)
    quote = best.evidence.partition("'")[2].rpartition("'")[0]
    return combine(signals), coded("inj_family", best.evidence, family="inj_" + best.family, quote=quote)
