"""Test-wide set-up: offline, and a fresh data directory per test that asks for one."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["LEXGATE_WARMUP"] = "0"  # app tests never load the local model in the background

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    return tmp_path / "lexgate-data"


@pytest.fixture
def store(store_dir: Path) -> Iterator[object]:
    from storage.store import Store

    yield Store(store_dir)
