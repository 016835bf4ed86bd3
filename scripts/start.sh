#!/usr/bin/env bash
# Install (if needed) and start Lexgate on its embedded, offline defaults at http://127.0.0.1:8501
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec .venv/bin/streamlit run app.py --server.address 127.0.0.1 --server.port "${LEXGATE_PORT:-8501}" "$@"
