# Sourced by the scripts in this directory: moves to the repository root and
# makes sure .venv exists with tfspore installed in editable mode (with the
# extras of TFSPORE_EXTRAS: by default test, parity, text and examples). The install is skipped while pyproject.toml (and
# the presence of the tfspore package, which the editable install maps) is
# unchanged since the last successful one.
#
# Environment:
#   PYTHON  interpreter used to create .venv (default: python3)

TFSPORE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$TFSPORE_ROOT"

TFSPORE_VENV="$TFSPORE_ROOT/.venv"
# the extras to install; scripts/train.sh asks for "examples" only (no real MindSpore to train LeNet)
TFSPORE_EXTRAS="${TFSPORE_EXTRAS:-test,parity,text,examples}"

if [ ! -x "$TFSPORE_VENV/bin/python" ]; then
    echo "Creating $TFSPORE_VENV" >&2
    "${PYTHON:-python3}" -m venv "$TFSPORE_VENV"
fi

_tfspore_stamp="$TFSPORE_VENV/.tfspore-install-stamp-${TFSPORE_EXTRAS//,/-}"
_tfspore_want="$("$TFSPORE_VENV/bin/python" -c '
import hashlib, os, sys
with open("pyproject.toml", "rb") as f:
    digest = hashlib.sha256(f.read()).hexdigest()
print(digest, sys.argv[1], os.path.isfile("tfspore/__init__.py"))
' "$TFSPORE_EXTRAS")"

if [ "$(cat "$_tfspore_stamp" 2>/dev/null)" != "$_tfspore_want" ]; then
    echo "Installing tfspore[$TFSPORE_EXTRAS] into $TFSPORE_VENV" >&2
    "$TFSPORE_VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        -e ".[$TFSPORE_EXTRAS]"
    printf '%s\n' "$_tfspore_want" > "$_tfspore_stamp"
fi
unset _tfspore_stamp _tfspore_want
