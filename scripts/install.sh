#!/usr/bin/env bash
# Install Lexgate into ./.venv. Idempotent: a stamp keyed on the requirements skips a repeat install.
#   scripts/install.sh        runtime packages (app, CLI, offline models)
#   scripts/install.sh dev    plus test and lint tools
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
REQ=requirements.txt
[ "${1:-}" = "dev" ] && REQ=requirements-dev.txt
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
stamp=".venv/.installed-$(cat requirements.txt requirements-dev.txt | sha256sum | cut -c1-16)-${1:-run}"
if [ -f "$stamp" ]; then
  exit 0
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
.venv/bin/python -m pip install -q --upgrade pip
# torch first, pinned: the CPU build lies on these machines; a bare 'torch' pulls a multi-GB CUDA build.
.venv/bin/python -m pip install -q "torch==2.13.0"
# llama-cpp-python compiles (~7 min once; pip caches the wheel): portable CPU flags.
CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON" \
  .venv/bin/python -m pip install -q -r "$REQ"
touch "$stamp"
