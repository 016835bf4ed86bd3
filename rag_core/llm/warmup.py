"""Background warm-up of the local model: assemble, load and prime the system prompt at app start.

Why: loading the 1.5B GGUF takes seconds to tens of seconds and evaluating the ~250-token system
prompt another several seconds on two cores; paid by the first question, they made it the slowest
one. The app starts the warm-up once per process; the Home page shows its phase. Priming leaves
the system prompt in the model's KV cache, which llama.cpp reuses for the next question with the
same system prompt (same language and switches).

One warm-up per (model size, context, threads): a second ``start_warmup`` returns the running or
finished one. The loader and primer are the model's own ``ensure_loaded`` and ``prime``, run in a
daemon thread; failures are kept as the state's error (code and message), never raised into the UI.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from rag_core.errors import LexgateError
from rag_core.generation.prompt import Language, system_prompt
from rag_core.judge.warm import start_judging_warmup, warm_judging_once
from rag_core.llm.factory import unavailable_error
from rag_core.llm.local_llama import get_local_model
from rag_core.settings import Settings

Phase = Literal["loading", "priming", "ready", "failed", "unavailable", "endpoint", "off"]

PHASE_PROGRESS: dict[Phase, float] = {
    "loading": 0.2,
    "priming": 0.7,
    "ready": 1.0,
    "failed": 1.0,
    "unavailable": 1.0,
    "endpoint": 1.0,
    "off": 0.0,
}
"""Share of the warm-up done when a phase starts (shown as the Home page's progress bar)."""


@dataclass(frozen=True)
class WarmupState:
    phase: Phase
    model: str = ""
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    load_s: float | None = None
    prime_s: float | None = None
    primed_tokens: int = 0
    error: str = ""
    error_code: str = ""

    @property
    def progress(self) -> float:
        return PHASE_PROGRESS[self.phase]

    @property
    def done(self) -> bool:
        return self.phase in ("ready", "failed", "unavailable", "endpoint", "off")

    @property
    def elapsed_s(self) -> float:
        return (self.finished or time.monotonic()) - self.started


class Warmup:
    """One warm-up run; ``state`` is safe to read from any thread while it runs."""

    def __init__(self, model: str, load: Callable[[], object], prime: Callable[[], int]) -> None:
        self._lock = threading.Lock()
        self._state = WarmupState("loading", model)
        self._load, self._prime = load, prime
        self.thread = threading.Thread(target=self._run, name=f"warmup {model}", daemon=True)

    @property
    def state(self) -> WarmupState:
        with self._lock:
            return self._state

    def _set(self, **changes: object) -> None:
        with self._lock:
            self._state = replace(self._state, **changes)  # type: ignore[arg-type]

    def _run(self) -> None:
        t0 = time.monotonic()
        try:
            self._load()
            t1 = time.monotonic()
            self._set(phase="priming", load_s=round(t1 - t0, 2))
            tokens = self._prime()
            self._set(
                phase="ready",
                prime_s=round(time.monotonic() - t1, 2),
                primed_tokens=tokens,
                finished=time.monotonic(),
            )
        except Exception as err:  # kept for the Home page; the first question will say it again
            code = err.code if isinstance(err, LexgateError) else ""
            self._set(phase="failed", error=str(err)[:300], error_code=code or "", finished=time.monotonic())

    def wait(self, timeout: float | None = None) -> WarmupState:
        if self.thread.is_alive():
            self.thread.join(timeout)
        return self.state


_runs: dict[tuple[str, int, int], Warmup] = {}
_runs_lock = threading.Lock()

WarmupFactory = Callable[[Settings, Language], Warmup]


def _local_warmup(settings: Settings, language: Language) -> Warmup:
    """Warm the judge, then load the configured local model and prime the system prompt of ``language``."""
    model = get_local_model(settings.models.local_model, settings.models)
    prompt = system_prompt(language)

    def load() -> None:
        warm_judging_once(settings)
        model.ensure_loaded()

    return Warmup(model.name, load, lambda: model.prime(prompt))


def _key(settings: Settings) -> tuple[str, int, int]:
    m = settings.models
    return (m.local_model, m.local_ctx, m.local_threads)


def current_state(settings: Settings) -> WarmupState:
    """The warm-up of the configured model as it stands, without starting one ("off" if none ran)."""
    if settings.models.provider == "openai":
        return WarmupState("endpoint", settings.models.answer_model, finished=time.monotonic())
    with _runs_lock:
        run = _runs.get(_key(settings))
    return run.state if run is not None else WarmupState("off", settings.models.local_model)


def start_warmup(
    settings: Settings, language: Language = "zh", factory: WarmupFactory = _local_warmup
) -> Warmup | WarmupState:
    """Start (once) the background warm-up of the configured local model; a finished state for an
    endpoint or when no local model can be loaded. ``factory`` builds the run (the real model's
    loader and primer by default)."""
    models = settings.models
    if models.provider == "openai":
        start_judging_warmup(settings)
        return WarmupState("endpoint", models.answer_model, finished=time.monotonic())
    missing = unavailable_error(settings, "answer")
    if missing is not None:
        start_judging_warmup(settings)
        return WarmupState(
            "unavailable",
            models.local_model,
            error=missing.what,
            error_code=missing.code or "",
            finished=time.monotonic(),
        )
    with _runs_lock:
        run = _runs.get(_key(settings))
        if run is None:
            run = _runs[_key(settings)] = factory(settings, language)
            run.thread.start()
        return run


def warmup_state(settings: Settings, language: Language = "zh") -> WarmupState:
    """The current state of the configured model's warm-up (starting it if it has not started)."""
    run = start_warmup(settings, language)
    return run.state if isinstance(run, Warmup) else run
