"""``train …``: refit a committed model from ``../shared/data/train`` and print its figures.

Each model adds one ``cmd_train_<name>`` here and one sub-parser in ``main._train_parsers``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag_core.cli.bench_cmds import shared_data_dir
from rag_core.cli.common import emit
from rag_core.errors import LexgateError

if TYPE_CHECKING:
    from rag_core.judge.threshold_cv import Judged


def _log(msg: str) -> None:
    """Progress goes to stderr so ``--json`` output stays clean."""
    print(msg, file=sys.stderr, flush=True)


def train_dir() -> Path:
    """``../shared/data/train``: the only data a model may be fitted on."""
    path = shared_data_dir() / "train"
    if not path.is_dir():
        raise LexgateError(f"training data not found at {path}", "set LEXGATE_SHARED_DATA to the data folder")
    return path


def format_figures(title: str, figures: dict[str, Any]) -> str:
    """Figures as ``name: value`` lines, nested blocks indented."""
    lines = [title]
    for name, value in figures.items():
        if isinstance(value, dict) and all(isinstance(v, float | int) for v in value.values()):
            cells = ", ".join(
                f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in value.items()
            )
            lines.append(f"  {name}: {cells}")
        else:
            lines.append(f"  {name}: {value}")
    return "\n".join(lines)


def cmd_train_judge(args: argparse.Namespace) -> int:
    from rag_core.judge.fitted import WEIGHTS_PATH
    from rag_core.judge.training import fit_all
    from rag_core.settings import JudgeTrainSettings

    data = fit_all(train_dir(), JudgeTrainSettings(), log=_log)
    text = json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n"
    out = Path(args.out) if args.out else WEIGHTS_PATH
    result: dict[str, Any] = {
        "weights": str(out),
        "train_hash": data["train_hash"],
        "recommended": data["recommended"],
        "figures": data["figures"],
    }
    if args.check:
        committed = WEIGHTS_PATH.read_text(encoding="utf-8") if WEIGHTS_PATH.exists() else ""
        result["identical_to_committed"] = committed == text
    else:
        write_whole(out, text)
    emit(
        args,
        result,
        format_figures(
            f"judge weights -> {out} (hash {data['train_hash'][:12]})",
            {**result["recommended"], **data["figures"]},
        ),
    )
    return 0 if not args.check or result["identical_to_committed"] else 1


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` whole: a temporary file renamed into place, so nothing is ever half-written."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def _read_scores(path: Path) -> list[Judged]:
    """Judged scores written by ``--save-scores``, or a clear error naming the file."""
    from rag_core.judge.threshold_cv import judged_from_json

    try:
        return judged_from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError) as err:
        why = f"cannot read --from-scores ({err})"
    except (KeyError, TypeError, ValueError) as err:
        why = f"--from-scores holds no judged scores ({type(err).__name__}: {err})"
    raise LexgateError(why, "give a file written by --save-scores", subject=str(path))


def cmd_train_thresholds(args: argparse.Namespace) -> int:
    """Cross-validate the refusal thresholds on the fit part; prints the choice, writes nothing."""
    from rag_core.bench.refusal_bench import CANDIDATES
    from rag_core.judge.threshold_cv import format_cv, judged_json, sweep, threshold_judged
    from rag_core.settings import JudgeTrainSettings, VerdictSettings

    if args.contracts < 1:
        raise LexgateError("--contracts must be at least 1", "for example: --contracts 15")
    if args.from_scores:
        judged = _read_scores(Path(args.from_scores))
    else:
        judged = threshold_judged(train_dir(), JudgeTrainSettings(), args.contracts, CANDIDATES, _log)
    if args.save_scores:
        write_whole(Path(args.save_scores), json.dumps(judged_json(judged)))
    result = sweep(judged, VerdictSettings())
    emit(args, result, format_cv(result))
    return 0


def cmd_train_doc_scope(args: argparse.Namespace) -> int:
    """The sweep that chose ``verdict.doc_scope_max_share`` on pairs of fit-part contracts; writes nothing."""
    from rag_core.judge.doc_scope import (
        COMMON_TERMS_PATH,
        committed_common,
        fit_common_terms,
        format_sweep,
        scope_sweep,
    )
    from rag_core.settings import JudgeTrainSettings

    if args.contracts < 1:
        raise LexgateError("--contracts must be at least 1", "for example: --contracts 80")
    ts = JudgeTrainSettings()
    common = fit_common_terms(train_dir(), ts)
    text = json.dumps(common, ensure_ascii=False, indent=0) + "\n"
    if args.check:
        same = COMMON_TERMS_PATH.is_file() and COMMON_TERMS_PATH.read_text(encoding="utf-8") == text
        emit(args, {"common_terms": str(COMMON_TERMS_PATH), "same": same}, f"common terms reproduced: {same}")
        return 0 if same else 1
    write_whole(COMMON_TERMS_PATH, text)
    committed_common.cache_clear()
    _log(f"{len(common['terms'])} common words of {common['contracts']} fit contracts -> {COMMON_TERMS_PATH}")
    result = scope_sweep(train_dir(), ts, args.contracts)
    emit(args, result, format_sweep(result))
    return 0


def cmd_train_injection(args: argparse.Namespace) -> int:
    """Refit the learned injection detector; ``--check`` fits and compares with the committed weights."""
    import numpy as np

    from rag_core.judge.injection_model import WEIGHTS_PATH, load_detector
    from rag_core.judge.injection_train import train_detector

    detector, meta = train_detector(train_dir().parent, log=_log)
    out = Path(args.out) if args.out else WEIGHTS_PATH
    result: dict[str, Any] = {
        "weights": str(out),
        **{k: meta[k] for k in ("fingerprint", "samples", "positives")},
    }
    result["counts"] = meta["counts"]
    result["train_accuracy"] = meta["train_accuracy"]
    if args.check:
        same = False
        if WEIGHTS_PATH.exists():
            old = load_detector(WEIGHTS_PATH)
            same = old.meta.get("fingerprint") == meta["fingerprint"] and bool(
                np.allclose(old.hash_w, detector.hash_w, atol=1e-5)
                and np.allclose(old.dense_w, detector.dense_w, atol=1e-5)
                and np.allclose(old.vec_w, detector.vec_w, atol=1e-5)
                and abs(old.bias - detector.bias) < 1e-5
            )
        result["identical_to_committed"] = same
    else:
        tmp = out.with_name(out.stem + ".tmp.npz")
        detector.save(tmp)
        tmp.replace(out)  # nothing half-written
    emit(
        args,
        result,
        format_figures(f"injection detector -> {out} (fingerprint {meta['fingerprint'][:12]})", result),
    )
    return 0 if not args.check or result["identical_to_committed"] else 1
