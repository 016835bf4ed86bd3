"""Generate the synthetic injection set: attack and look-alike sentences planted into real clauses.

Why planted, not alone: at judge time the detector scores sentences of retrieved passages, so
its training sentences must come out of the same splitter applied to the same kind of text. Each
attack (or look-alike) is inserted at a random sentence boundary of a host passage: a window of
a ``train/cuad`` contract (English) or a run of Chinese clauses written for the fixtures. The set
is a pure function of the seed and the contracts on disk; ``scripts/gen_injection_set.py`` writes
it to ``rag_core/judge/data/injection_synthetic.jsonl`` and ``train injection`` reads that file.

Contracts whose index is a multiple of ``HOLDOUT_EVERY`` (sorted by name) are never used here:
their sentences measure the false-positive rate of clean contracts the detector has not seen.
"""

from __future__ import annotations

import base64
import codecs
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rag_core.judge import injection_synth_data as D
from rag_core.judge import injection_synth_fresh as F
from rag_core.judge import injection_synth_more as M
from rag_core.judge import injection_synth_probe as P
from rag_core.judge import injection_synth_s26 as S26
from rag_core.judge import injection_synth_s27 as S27
from rag_core.judge import injection_synth_s35 as S35
from rag_core.judge import injection_synth_s36 as S36
from rag_core.judge import injection_synth_s40 as S40
from rag_core.judge import injection_synth_s41 as S41
from rag_core.judge import injection_synth_s42 as S42
from rag_core.judge import injection_synth_s43 as S43
from rag_core.judge import injection_synth_s44 as S44
from rag_core.judge import injection_synth_s45 as S45
from rag_core.judge.sentences import sentence_spans

SEED: int = 11
"""Seed of the generator: the committed set is what this seed produces."""

PER_FAMILY: int = 64
"""Planted passages per attack family and per look-alike family."""

HOST_MIN_CHARS: int = 250
HOST_MAX_CHARS: int = 1100
"""Length range of an English host window cut from a contract at sentence boundaries."""

ZH_HOST_SENTENCES: tuple[int, int] = (2, 6)
"""Chinese clauses joined into one host passage (inclusive range)."""

HOLDOUT_EVERY: int = 8
"""Every eighth contract (sorted by name) is held out of all training (clean FPR check)."""

FRAME_SHARE: float = 0.5
"""Share of planted attack sentences wrapped in an addressee and a manner (``frame``)."""

FRESH_SEED_OFFSET: int = 1
"""The families of ``injection_synth_fresh`` are drawn from their own generator (seed + this), so
adding them leaves every earlier row of the set byte-identical."""

S26_SEED_OFFSET: int = 2
"""The families of ``injection_synth_s26`` are drawn from their own generator too, for the same reason."""
S27_SEED_OFFSET: int = 3
"""And those of ``injection_synth_s27``: every earlier row stays byte-identical."""
S35_SEED_OFFSET: int = 4
"""And those of ``injection_synth_s35`` (directives on how the document is restated)."""
S36_SEED_OFFSET: int = 5
"""And those of ``injection_synth_s36`` (directives on how the document is described or relayed, and
inquiry redirection)."""
S40_SEED_OFFSET: int = 6
"""And those of ``injection_synth_s40`` (notes addressed to software or automated readers, and
directives on what an output must leave out)."""
S41_SEED_OFFSET: int = 7
"""And those of ``injection_synth_s41`` (rules fixing what any reply about the document says, and the
honest reply duties and filing metadata lines the detector flagged in the session 41 try-out)."""

S42_SEED_OFFSET: int = 8
"""And those of ``injection_synth_s42`` (who interprets the contract or answers enquiries about it: clean clauses
the detector flagged in the session 42 try-out)."""
S43_SEED_OFFSET: int = 9
"""And those of ``injection_synth_s43`` (a party's duties about how an assistant it builds or runs answers users, and
attacks disguised as such a duty)."""
S44_SEED_OFFSET: int = 10
"""And those of ``injection_synth_s44`` (Chinese duties of a party's staff about how they answer its customers)."""
S45_SEED_OFFSET: int = 11
"""And those of ``injection_synth_s45`` (deeming rules that hold only when software reads the document, and real
clauses where something automated is deemed or counts)."""

SYNTH_PATH: Path = Path(__file__).with_name("data") / "injection_synthetic.jsonl"


def contract_files(cuad_dir: Path) -> list[Path]:
    """The contracts of ``train/cuad/contracts`` in a fixed (sorted) order."""
    return sorted(cuad_dir.glob("*.txt"))


def training_contracts(cuad_dir: Path) -> list[Path]:
    """Contracts the detector may learn from (all but the held-out ones)."""
    return [p for i, p in enumerate(contract_files(cuad_dir)) if i % HOLDOUT_EVERY != 0]


def heldout_contracts(cuad_dir: Path) -> list[Path]:
    """Contracts never seen in training: their sentences measure the clean false-positive rate."""
    return [p for i, p in enumerate(contract_files(cuad_dir)) if i % HOLDOUT_EVERY == 0]


def english_hosts(cuad_dir: Path, rng: random.Random, count: int) -> list[str]:
    """``count`` windows of training contracts, each starting and ending at a sentence boundary."""
    return contract_windows(training_contracts(cuad_dir), rng, count)


def contract_windows(paths: list[Path], rng: random.Random, count: int) -> list[str]:
    """``count`` windows of the contracts at ``paths``, each starting and ending at a sentence boundary
    (the sealed set cuts its hosts from held-out contracts the same way)."""
    texts = [p.read_text(encoding="utf-8") for p in paths]
    split = [(t, sentence_spans(t)) for t in texts]
    split = [(t, s) for t, s in split if len(s) >= 4]
    hosts: list[str] = []
    while len(hosts) < count:
        text, spans = rng.choice(split)
        i = rng.randrange(len(spans) - 3)
        j = i
        while j + 1 < len(spans) and spans[j][1] - spans[i][0] < HOST_MIN_CHARS:
            j += 1
        window = " ".join(text[spans[i][0] : spans[j][1]].split())
        if HOST_MIN_CHARS <= len(window) <= HOST_MAX_CHARS:
            hosts.append(window)
    return hosts


def chinese_host(rng: random.Random) -> str:
    """A run of Chinese clauses (2-6 of them) in random order."""
    lo, hi = ZH_HOST_SENTENCES
    return "".join(rng.sample(D.ZH_CLAUSES, rng.randint(lo, hi)))


def _payloads(rng: random.Random) -> dict[str, str]:
    """One hidden command in each disguise the ``encoded`` family uses."""
    cmd = rng.choice(D.PAYLOADS)
    return {
        "payload_b64": base64.b64encode(cmd.encode()).decode(),
        "payload_hex": cmd.encode().hex(),
        "payload_rot13": codecs.encode(cmd, "rot13"),
        "payload_reversed": cmd[::-1],
        "payload_homoglyph": "".join(D.HOMOGLYPHS.get(ch, ch) for ch in cmd),
        "payload_spaced": "  ".join(" ".join(word) for word in cmd.split()),
    }


def fill(template: str, rng: random.Random, lookalike: bool = False) -> str:
    """A template with every slot filled from the slot tables (acts and claims may hold slots too).

    Look-alikes take the parties' own addresses, attacks the attacker's: otherwise the set would
    teach that a particular domain, not a request to the reader, marks an attack.
    """
    base = {
        "url": rng.choice(D.LOOKALIKE_URLS if lookalike else D.URLS),
        "email": rng.choice(D.LOOKALIKE_EMAILS if lookalike else D.EMAILS),
        "num": str(rng.choice([0, 1, 3, 7, 12, 30, 99, 500, 1000, 88888])),
        "num2": f"{rng.randrange(100):02d}",
        "hex_id": "".join(rng.choice("0123456789abcdef") for _ in range(32)),
        "hex_short": "".join(rng.choice("0123456789ABCDEF") for _ in range(6)),
    }
    goal, goal_zh = rng.choice(D.GOALS)
    persona, persona_zh = rng.choice(D.PERSONAS)
    act, act_zh = rng.choice(D.ACTS)
    claim, claim_zh = rng.choice(D.CLAIMS)
    slots = {
        **base,
        **_payloads(rng),
        "goal": goal,
        "goal_zh": goal_zh,
        "persona": persona,
        "persona_zh": persona_zh,
        "act": act.format(**base),
        "act_zh": act_zh.format(**base),
        "claim": claim,
        "claim_zh": claim_zh,
    }
    return template.format(**slots)


def is_chinese_template(template: str) -> bool:
    """Whether a phrasing is Chinese (it then goes into a Chinese host)."""
    return sum("\u4e00" <= ch <= "\u9fff" for ch in template) >= 4


def frame(sentence: str, rng: random.Random, chinese: bool) -> str:
    """``sentence`` spoken to the reading system, politely, urgently or indirectly.

    Why: real attacks mix their parts freely (who is addressed, how, what is asked, what for), so a
    family must not rest on its few fixed sentences. Only sentences opening with a letter or a
    Chinese character are framed: a tag, a bracket or an encoded payload keeps its shape.
    """
    first = sentence[:1]
    if not (first.isalpha() or "\u4e00" <= first <= "\u9fff"):
        return sentence
    if chinese:
        return rng.choice(P.FRAME_ADDRESSEES_ZH) + rng.choice(P.FRAME_MANNERS_ZH) + sentence
    head = rng.choice(P.FRAME_ADDRESSEES_EN) + rng.choice(P.FRAME_MANNERS_EN)
    keep = sentence[:2].isupper()  # "AI …", "IMPORTANT" keep their capitals
    return head + (sentence if keep else sentence[0].lower() + sentence[1:])


def plant(host: str, sentence: str, rng: random.Random, chinese: bool) -> tuple[str, int, int]:
    """``host`` with ``sentence`` inserted at a random sentence boundary, and where it went."""
    bounds = [0, *(e for _, e in sentence_spans(host))]
    at = rng.choice(bounds)
    before, after = host[:at].rstrip(), host[at:].lstrip()
    sep = "" if chinese else " "
    left = before + (sep if before else "")
    text = left + sentence + (sep if after else "") + after
    return text, len(left), len(left) + len(sentence)


def _rows(
    kind: str, table: dict[str, tuple[str, ...]], cuad_dir: Path, rng: random.Random
) -> Iterator[dict[str, Any]]:
    hosts = english_hosts(cuad_dir, rng, PER_FAMILY * len(table))
    for family, templates in table.items():
        for k in range(PER_FAMILY):
            template = templates[k % len(templates)]
            chinese = is_chinese_template(template)
            sentence = fill(template, rng, lookalike=kind == "lookalike")
            framed = kind == "attack" and rng.random() < FRAME_SHARE
            if framed:
                sentence = frame(sentence, rng, chinese)
            host = chinese_host(rng) if chinese else hosts.pop()
            text, start, end = plant(host, sentence, rng, chinese)
            yield {
                "text": text,
                "label": int(kind == "attack"),
                "kind": kind,
                "family": family,
                "phrasing": k % len(templates),
                "framed": int(framed),
                "lang": "zh" if chinese else "en",
                "start": start,
                "end": end,
            }


def generate(cuad_dir: Path, seed: int = SEED) -> list[dict[str, Any]]:
    """The whole synthetic set: planted attacks of every family, then planted look-alikes."""
    rng = random.Random(seed)
    attacks = {**D.ATTACKS, **M.ATTACKS, **P.ATTACKS}
    lookalikes = {**D.LOOKALIKES, **M.LOOKALIKES, **P.LOOKALIKES}
    rows = [*_rows("attack", attacks, cuad_dir, rng), *_rows("lookalike", lookalikes, cuad_dir, rng)]
    fresh = random.Random(seed + FRESH_SEED_OFFSET)
    rows += [*_rows("attack", F.ATTACKS, cuad_dir, fresh), *_rows("lookalike", F.LOOKALIKES, cuad_dir, fresh)]
    s26 = random.Random(seed + S26_SEED_OFFSET)
    rows += [*_rows("attack", S26.ATTACKS, cuad_dir, s26), *_rows("lookalike", S26.LOOKALIKES, cuad_dir, s26)]
    s27 = random.Random(seed + S27_SEED_OFFSET)
    rows += [*_rows("attack", S27.ATTACKS, cuad_dir, s27), *_rows("lookalike", S27.LOOKALIKES, cuad_dir, s27)]
    s35 = random.Random(seed + S35_SEED_OFFSET)
    rows += [*_rows("attack", S35.ATTACKS, cuad_dir, s35), *_rows("lookalike", S35.LOOKALIKES, cuad_dir, s35)]
    s36 = random.Random(seed + S36_SEED_OFFSET)
    rows += [*_rows("attack", S36.ATTACKS, cuad_dir, s36), *_rows("lookalike", S36.LOOKALIKES, cuad_dir, s36)]
    s40 = random.Random(seed + S40_SEED_OFFSET)
    rows += [*_rows("attack", S40.ATTACKS, cuad_dir, s40), *_rows("lookalike", S40.LOOKALIKES, cuad_dir, s40)]
    s41 = random.Random(seed + S41_SEED_OFFSET)
    rows += [*_rows("attack", S41.ATTACKS, cuad_dir, s41), *_rows("lookalike", S41.LOOKALIKES, cuad_dir, s41)]
    s42 = random.Random(seed + S42_SEED_OFFSET)
    rows += [*_rows("attack", S42.ATTACKS, cuad_dir, s42), *_rows("lookalike", S42.LOOKALIKES, cuad_dir, s42)]
    s43 = random.Random(seed + S43_SEED_OFFSET)
    rows += [*_rows("attack", S43.ATTACKS, cuad_dir, s43), *_rows("lookalike", S43.LOOKALIKES, cuad_dir, s43)]
    s44 = random.Random(seed + S44_SEED_OFFSET)
    rows += [*_rows("attack", S44.ATTACKS, cuad_dir, s44), *_rows("lookalike", S44.LOOKALIKES, cuad_dir, s44)]
    s45 = random.Random(seed + S45_SEED_OFFSET)
    rows += [*_rows("attack", S45.ATTACKS, cuad_dir, s45), *_rows("lookalike", S45.LOOKALIKES, cuad_dir, s45)]
    return rows


def write_jsonl(rows: list[dict[str, Any]], path: Path) -> None:
    """One JSON object per line, keys sorted, so the file is byte-identical for the same rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The committed set as written by ``write_jsonl``."""
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
