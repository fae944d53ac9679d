#!/usr/bin/env bash
# Runs the test suite in .venv (created and set up on first use).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -k checkpoint`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
source "$(dirname "${BASH_SOURCE[0]}")/ms_dataset_env.sh"
exec "$TFSPORE_VENV/bin/python" -m pytest -n 2 -q --durations=25 tests "$@"
