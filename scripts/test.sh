#!/usr/bin/env bash
# Install (if needed) and run the whole test suite: lint, format check, types, pytest (incl. browser tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh dev
# The browser tests drive Debian's chromium with CJK fonts; install them when missing (root, apt).
if ! command -v chromium >/dev/null 2>&1 || [ ! -d /usr/share/fonts/opentype/noto ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  else
    echo "warning: chromium/fonts-noto-cjk missing and not root: browser tests will be skipped" >&2
  fi
fi
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
