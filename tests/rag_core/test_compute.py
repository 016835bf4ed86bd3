"""The shared compute lock: re-entrant in its thread, releasable from another, exclusive across threads."""

from __future__ import annotations

import threading

from rag_core.compute import ComputeLock


def test_reentrant_and_released_only_by_the_last_exit() -> None:
    lock = ComputeLock()
    with lock, lock:
        pass
    assert lock._lock.acquire(timeout=0)  # free again after both exits
    lock._lock.release()


def test_other_threads_wait_and_a_foreign_release_frees_it() -> None:
    lock = ComputeLock()
    lock.acquire()
    got: list[bool] = []
    waiter = threading.Thread(target=lambda: got.append(lock._lock.acquire(timeout=0.05)))
    waiter.start()
    waiter.join()
    assert got == [False]
    releaser = threading.Thread(target=lock.release)  # e.g. a generator closed by the GC elsewhere
    releaser.start()
    releaser.join()
    assert lock._lock.acquire(timeout=0)
    lock._lock.release()
