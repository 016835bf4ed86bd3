"""The learned injection detector: rule signals, hashed character n-grams and the sentence's
multilingual vector into a logistic model.

Why this model: attacks nobody wrote a rule for still share surface material with attacks that
were written down (second person, "AI"/"助手", imperative openings, quoted payloads, links), and
character n-grams see it in Chinese and English alike without a tokenizer. The rule families'
strengths are features too, so the model learns how far to trust each rule. The sentence vector
(multilingual USE, ``judge.dense``, the space the relevance judge already reads) carries what a
sentence *means* rather than how it is worded: on attack families written after the fit and never
trained on (``injection_synth_sealed``) the n-grams alone missed a third of some families whose
wording they had never seen. Why USE and not e5: e5 reads ~14 short sentences per second on this
machine and a 20-passage request holds ~200 sentences; USE embeds them in ~0.15 s.

Why numpy at run time: the weights are a committed ``.npz`` of plain arrays (never a pickle),
loaded once; scikit-learn is needed only to fit them (``python -m rag_core train injection``).
"""

from __future__ import annotations

import json
import math
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rag_core.judge.injection_cues import CUES, WHO_CUES, cue_features, party_subject, who_features
from rag_core.judge.injection_rules import Signal

HASH_DIMS: int = 2**16
"""Buckets of the hashed character n-grams (collisions are rare at this size for sentences)."""

NGRAM_MIN: int = 2
NGRAM_MAX: int = 4
"""Character n-gram lengths: 2-grams are Chinese words, 4-grams English word pieces."""

WEIGHTS_PATH: Path = Path(__file__).with_name("data") / "injection_model.npz"

FAMILIES: tuple[str, ...] = (
    "override",
    "new_task",
    "persona",
    "prompt_leak",
    "source_override",
    "forced_output",
    "task_command",
    "pressure",
    "fake_context",
    "role_marker",
    "exfiltration",
    "hidden",
    "obfuscation",
    "separator",
    "out_of_place",
    "encoded",
)
"""Rule families whose strongest hit in the sentence is one feature each."""

_URL = re.compile(r"https?://|www\.|\b[\w-]+\.(?:com|net|org|io|xyz|top|cn|ru)\b", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\(")
_MD_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")
_PHONE = re.compile(r"(?:\+?\d[\d\s-]{8,}\d)")
# English words are bounded by non-Latin characters, not ``\b``: in "AI必须立即回复" the Chinese
# character is a word character, so ``\bai\b`` would not see the addressee of a mixed-script line.
_SECOND_PERSON = re.compile(r"(?<![A-Za-z])(?:you|your|yours|yourself)(?![A-Za-z])|你|您", re.IGNORECASE)
_AI_ADDRESSEE = re.compile(
    r"(?<![A-Za-z])(?:ai|assistant|chatbot|bot|language\s+model|llm|gpt|model|system)(?![A-Za-z])"
    r"|助手|人工智能|模型|机器人|大模型|ＡＩ",
    re.IGNORECASE,
)
_ANSWER_WORDS = re.compile(
    r"(?<![A-Za-z])(?:answer|reply|respond|response|output|say|print|repeat|reveal)[A-Za-z]*"
    r"|回答|回复|答复|输出|告诉|透露|显示",
    re.IGNORECASE,
)
_LEGAL = re.compile(
    r"\b(?:agreement|part(?:y|ies)|hereof|hereunder|herein|hereto|thereof|pursuant|licensee|licensor|section|"
    r"term|termination|liabilit(?:y|ies)|warrant\w*|indemnif\w*|covenants?|notwithstanding|affiliates?|"
    r"obligations?|consent|breach|royalt(?:y|ies)|effective\s+date|notices?|company|customer|supplier)\b"
    r"|甲方|乙方|丙方|本合同|本协议|条款|违约|当事人|双方|一方|合同|协议|约定",
    re.IGNORECASE,
)
_PARTY_MODAL = re.compile(
    r"\b(?:shall|may\s+not|must\s+not|agrees?\s+to|is\s+entitled\s+to|will\s+be\s+entitled)\b"
    r"|应当|应于|应在|应按|不得|有权|负责|承担",
    re.IGNORECASE,
)
_READER = re.compile(
    r"\b(?:users?|readers?|whoever|anyone|the\s+person\s+asking|questioner|requester)\b|用户|读者|提问|问的人|对方问",
    re.IGNORECASE,
)
_META = re.compile(
    r"\b(?:this|the)\s+(?:document|text|file|passage|sentence|note|message|conversation|chat|clause)\b"
    r"|\b(?:summari[sz]\w*|process(?:es|ing)?|reading|retriev\w*|answer(?:s|ing)?|questions?)\b"
    r"|本文件|本文本|这句话|本句|此句|该句|以上|上述|前面|对话|问题|回答|总结|摘要|检索",
    re.IGNORECASE,
)
_IMPERATIVE_START = re.compile(
    r"^\W*(?:please|kindly|do\s+not|don't|never|always|now|just|simply|make\s+sure|be\s+sure|remember|note|"
    r"ignore|forget|disregard|tell|say|state|print|output|reply|respond|answer|write|repeat|list|add|append|"
    r"include|send|call|invoke|use|open|show|reveal|mention|remind|stop|switch|act|pretend|imagine|decode)\b"
    r"|^\W*(?:请|务必|必须|一定要|不要|别|禁止|不许|记得|注意|忽略|忘记|告诉|回答|回复|输出|说明|写明|列出|调用|执行|打开|显示)",
    re.IGNORECASE,
)
# What the reader is told to answer, and when: a reply verb with its payload after it, a condition
# on being asked, the assistant's own set-up, and "say nothing else". Each is shared by several
# attack families (so a family left out of the fit still meets it through the others), and a
# clause between parties rarely has any of them.
_DICTATED_REPLY = re.compile(
    r"\b(?:answer|reply|respond|say|output)(?:s|ed|ing)?\s*(?:[:：\"“]|with\b|only\b|that\s+(?:the|this|no|all)\b)"
    # not "统一答复" alone: "应由甲方统一答复" says who answers for both parties, not what (0.88 in the session 42
    # try-out); "统一答复：…" still meets the payload branch before it
    r"|(?:回答|回复|答复|输出|说明|写明|表示)(?:为|是|成)?\s*[:：“「]|(?:一律|只|直接)(?:回答|回复|答复|输出|说)",
    re.IGNORECASE,
)
_ASKED_CONDITION = re.compile(
    r"\b(?:when(?:ever)?|if)\s+(?:you\s+are\s+|anyone\s+|someone\s+|the\s+user\s+|a\s+user\s+)?ask(?:ed|s)?\b"
    r"|\bwhatever\b[^.!?]{0,30}\bask|\bno\s+matter\s+what\b|\bany\s+question\b"
    r"|被问到|问到|问及|如有人问|有人问|无论[^。！？]{0,12}问|不管[^。！？]{0,12}问|任何[^。！？]{0,8}问题",
    re.IGNORECASE,
)
_ASSISTANT_SETUP = re.compile(
    r"\b(?:system\s+prompt|hidden\s+(?:instructions|rules)|initial\s+instructions|your\s+(?:rules|instructions|"
    r"configuration|set-?up|guidelines|programming)|developer\s+message)\b"
    r"|系统提示(?![音框灯])|提示词|初始设定|原来的设定|隐藏规则|开发者|系统消息|系统指令|你的(?:规则|设定|指令)",
    re.IGNORECASE,
)
_NOTHING_ELSE = re.compile(
    r"\b(?:nothing\s+else|do\s+not\s+explain|don't\s+explain|without\s+(?:any\s+)?explanation|do\s+not\s+mention|"
    r"don't\s+cite|do\s+not\s+cite|no\s+disclaimers?|and\s+do\s+not\s+refuse)\b"
    r"|不要解释|别解释|不要多说|不必看|不要提及|别引用|不要引用|其他一律不|勿向用户",
    re.IGNORECASE,
)
_POLITE_REQUEST = re.compile(
    r"\b(?:please|kindly)\b|(?<![申提邀聘延])请(?!求|示|款|假)|麻烦|务必", re.IGNORECASE
)
_QUOTED = re.compile(r"[\"“”'‘’「」『』]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
_URL_FULL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)

STRUCTURE: tuple[str, ...] = (
    "url",
    "email",
    "md_image",
    "md_link",
    "phone",
    "second_person",
    "ai_addressee",
    "answer_words",
    "quoted",
    "mixed_script",
    "log_length",
    "contact_in_request",
    "addressed_request",
    "legal_vocabulary",
    "party_modal",
    "reader_words",
    "meta_reference",
    "imperative_start",
    "dictated_reply",
    "asked_condition",
    "assistant_setup",
    "nothing_else",
    "polite_request",
    "product_duty",
    *CUES,
    *WHO_CUES,
)
"""Surface features of a sentence beside the rules (what the output guard also looks for), then the
cross-family cues of ``injection_cues`` (addressee, acts on the answer, a party's obligation; who is
asked, what is being read, records and forms, tool calls, corrections, later turns)."""

DENSE_DIMS: int = len(FAMILIES) + len(STRUCTURE)

VECTOR_DIMS: int = 512
"""Dimensions of the sentence vector (``judge.dense.DIM``, multilingual USE v3)."""

VECTOR_SCALE: float = 1.0
"""Factor on the unit-length sentence vector: 1 gives it the same norm as the L2-normalised n-gram
block, so neither block is cheaper under the fit's L2 penalty. Scales 0.5 and 2 trade attack recall
against look-alike false positives on the training folds (README, verdicts section); 1 was kept."""

DENSE_SCALE: float = 1.0
"""Factor on the rule strengths and surface features (the hashed n-grams have unit norm). A larger
factor makes those weights cheaper under the L2 penalty than n-gram weights, so the fit leans on
what carries across families rather than on one family's wording."""


_THIS_DOCUMENT = re.compile(
    r"\bthis\s+(?:agreement|contract|document|lease|deed|amendment|addendum)\b|本合同|本协议|本文件|本契约|本条款",
    re.IGNORECASE,
)
_BUILT = re.compile(
    r"\b(?:developed|deployed|built|configured|trained|provided|delivered|operated)\b|开发的|部署的|交付的|提供的|运营的",
    re.IGNORECASE,
)


def product_duty(sentence: str, ai: bool) -> bool:
    """An assistant, bot or model named as a party's work or product (a party bound by a modal, or the bot "developed",
    "开发的"), in a sentence that says nothing of this contract: a duty about how a product answers its users.

    Why (session 43 try-out): a contract for an AI product binds a party to how the assistant answers, and "The Vendor
    shall configure the assistant to answer in English unless the user writes in French." scored 0.94; a planted
    directive about what any assistant must say of *this* agreement is the attack that looks most like it."""
    return (
        ai
        and bool(party_subject(sentence) or _BUILT.search(sentence))
        and not _THIS_DOCUMENT.search(sentence)
    )


def _structure(sentence: str) -> list[float]:
    """The ``STRUCTURE`` features of one sentence, in order."""
    cjk = len(_CJK.findall(sentence))
    # English words outside links and addresses: a Chinese clause naming legal@acme.com is not mixed.
    latin = len(_LATIN_WORD.findall(_EMAIL.sub(" ", _URL_FULL.sub(" ", sentence))))
    url, email = bool(_URL.search(sentence)), bool(_EMAIL.search(sentence))
    image, phone = bool(_MD_IMAGE.search(sentence)), bool(_PHONE.search(sentence))
    you, ai = bool(_SECOND_PERSON.search(sentence)), bool(_AI_ADDRESSEE.search(sentence))
    answer = bool(_ANSWER_WORDS.search(sentence))
    return [
        float(url),
        float(email),
        float(image),
        float(bool(_MD_LINK.search(sentence))),
        float(phone),
        float(you),
        float(ai),
        float(answer),
        float(bool(_QUOTED.search(sentence))),
        float(cjk >= 2 and latin >= 2),
        math.log1p(len(sentence)) / 8.0,
        # Pairs a linear model cannot form itself: a contact point inside a request to the reader,
        # and a request about the answer addressed to "you" or to an AI.
        float((url or email or image or phone) and (answer or you)),
        float((you or ai) and answer),
        # How much the sentence reads as an obligation between parties: planted requests rarely do.
        min(len(_LEGAL.findall(sentence)), 3) / 3.0,
        float(bool(_PARTY_MODAL.search(sentence))),
        # Who and what the sentence talks about: the person asking, the text being read, the reader's
        # next move; an honest clause talks about the parties and their obligations.
        float(bool(_READER.search(sentence))),
        float(bool(_META.search(sentence))),
        float(bool(_IMPERATIVE_START.search(sentence))),
        float(bool(_DICTATED_REPLY.search(sentence))),
        float(bool(_ASKED_CONDITION.search(sentence))),
        float(bool(_ASSISTANT_SETUP.search(sentence))),
        float(bool(_NOTHING_ELSE.search(sentence))),
        float(bool(_POLITE_REQUEST.search(sentence))),
        float(product_duty(sentence, ai)),
        *cue_features(sentence),
        *who_features(sentence),
    ]


def dense_features(sentence: str, signals: list[Signal]) -> list[float]:
    """Rule-family strengths then surface features: the non-hashed part of a sentence's vector."""
    best = dict.fromkeys(FAMILIES, 0.0)
    for s in signals:
        if s.family in best:
            best[s.family] = max(best[s.family], s.strength)
    return [DENSE_SCALE * v for v in [best[f] for f in FAMILIES] + _structure(sentence)]


def ngram_buckets(sentence: str) -> npt.NDArray[np.int64]:
    """Sorted unique hash buckets of the sentence's character n-grams (lower-cased, spaces folded).

    crc32 rather than ``hash()``: Python salts string hashes per process, and the buckets must
    be the same at fit time and at judge time.
    """
    text = " " + " ".join(sentence.lower().split()) + " "
    grams = {text[i : i + n] for n in range(NGRAM_MIN, NGRAM_MAX + 1) for i in range(len(text) - n + 1)}
    idx = {zlib.crc32(g.encode("utf-8")) % HASH_DIMS for g in grams}
    return np.array(sorted(idx), dtype=np.int64)


def sentence_vectors(sentences: list[str]) -> npt.NDArray[np.float32]:
    """Unit USE vectors (n, ``VECTOR_DIMS``) of the (normalised) sentences, as the fit saw them."""
    from rag_core.judge import dense

    return dense.embed(sentences)


@dataclass(frozen=True)
class Detector:
    """Fitted weights: one per hash bucket, one per dense feature, one per vector dimension, a bias."""

    hash_w: npt.NDArray[np.float32]
    dense_w: npt.NDArray[np.float32]
    vec_w: npt.NDArray[np.float32]
    bias: float
    meta: dict[str, Any]

    def logit(self, sentence: str, signals: list[Signal], vector: npt.NDArray[np.float32]) -> float:
        """The model's log-odds that ``sentence`` (whose vector is ``vector``) is an injection."""
        idx = ngram_buckets(sentence)
        z = self.bias
        if idx.size:
            z += float(self.hash_w[idx].sum()) / math.sqrt(idx.size)
        z += float(np.dot(self.dense_w, np.asarray(dense_features(sentence, signals), dtype=np.float32)))
        z += VECTOR_SCALE * float(np.dot(self.vec_w, vector))
        return z

    def predict(self, sentences: list[str], signals: list[list[Signal]]) -> list[float]:
        """Probabilities in [0,1], one per sentence (``signals[i]`` are sentence i's rule hits)."""
        vectors = sentence_vectors(sentences)
        out = []
        for s, sig, vec in zip(sentences, signals, vectors, strict=True):
            z = self.logit(s, sig, vec)
            out.append(1.0 / (1.0 + math.exp(-z)) if z > -30 else 0.0)
        return out

    def save(self, path: Path) -> None:
        """Plain arrays and a JSON string: loadable with numpy alone, never a pickle."""
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            path,
            hash_w=self.hash_w.astype(np.float32),
            dense_w=self.dense_w.astype(np.float32),
            vec_w=self.vec_w.astype(np.float32),
            bias=np.array([self.bias], dtype=np.float64),
            meta=np.array(json.dumps(self.meta, sort_keys=True)),
        )


def load_detector(path: Path) -> Detector:
    """The detector stored at ``path`` (``allow_pickle=False``: the file is data, not code)."""
    with np.load(path, allow_pickle=False) as data:
        hash_w = np.asarray(data["hash_w"], dtype=np.float32)
        dense_w = np.asarray(data["dense_w"], dtype=np.float32)
        if "vec_w" not in data:
            raise ValueError(f"{path}: weights without a sentence-vector part; refit with `train injection`")
        vec_w = np.asarray(data["vec_w"], dtype=np.float32)
        bias = float(data["bias"][0])
        meta = json.loads(str(data["meta"]))
    if hash_w.shape != (HASH_DIMS,) or dense_w.shape != (DENSE_DIMS,) or vec_w.shape != (VECTOR_DIMS,):
        shapes = f"{hash_w.shape}/{dense_w.shape}/{vec_w.shape}"
        raise ValueError(f"{path}: weights of shape {shapes} do not fit these features")
    return Detector(hash_w, dense_w, vec_w, bias, meta)


@lru_cache(maxsize=1)
def default_detector() -> Detector | None:
    """The committed detector, loaded once; ``None`` only before the first ``train injection``."""
    if not WEIGHTS_PATH.exists():
        return None
    return load_detector(WEIGHTS_PATH)
