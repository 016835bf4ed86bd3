"""The process-wide compute lock that local models share: embedders per batch, the LLM per generation.

Why a process-wide compute lock: on a 2-core laptop, embedding while the local LLM generates made
generation collapse (MODELS.md: 0.4 tok/s instead of 20). Local embedders take the lock per batch, the
local LLM for a whole generation, so they take turns instead of fighting over the cores. It lives
here, apart from both, because neither owns it.
"""

from __future__ import annotations

import threading


class ComputeLock:
    """Re-entrant per thread, but releasable from any thread.

    Why not ``threading.RLock``: a streaming generator holding it may be closed by the garbage
    collector on another thread; an RLock would then refuse the release and stay held forever.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owner: int | None = None
        self._depth = 0

    def acquire(self) -> None:
        me = threading.get_ident()
        if self._owner == me:
            self._depth += 1
            return
        self._lock.acquire()
        self._owner, self._depth = me, 1

    def release(self) -> None:
        self._depth -= 1
        if self._depth <= 0:
            self._owner, self._depth = None, 0
            self._lock.release()

    def __enter__(self) -> ComputeLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


LOCAL_COMPUTE_LOCK = ComputeLock()
"""The one lock every local engine (embedders, the local LLM) computes under."""
