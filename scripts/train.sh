#!/usr/bin/env bash
# Trains LeNet on scikit-learn's handwritten digits in .venv (created and set
# up on first use). Arguments go to examples/lenet/train.py, e.g.
# `bash scripts/train.sh --epochs 2`.
set -euo pipefail
TFSPORE_EXTRAS="${TFSPORE_EXTRAS:-examples}"  # scikit-learn's digits; not the test or parity extras
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
exec "$TFSPORE_VENV/bin/python" examples/lenet/train.py "$@"
