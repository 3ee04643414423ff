#!/usr/bin/env bash
# The test command: installs what is missing, then runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh
export PREFECT_SERVER_ANALYTICS_ENABLED=false PREFECT_HOME="${PREFECT_HOME:-$PWD/.gymfactory/prefect}"
mkdir -p "$PREFECT_HOME"  # Prefect makes only the last folder of it
# two workers on CI's two cores (one per core anywhere else); a test file stays on one worker, with its module fixtures;
# files start in collection order, the longest first (conftest.py's LONGEST_FIRST)
exec .venv/bin/python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder --durations=25 "$@"
