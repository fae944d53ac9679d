# Sourced by scripts/test.sh (or run directly): makes sure .venv-msds exists with
# mindspore==2.10.0 and numpy<2, the environment in which MindSpore's own dataset
# module runs. The dataset parity tests run MindSpore's side of each comparison
# with .venv-msds/bin/python (tests/parity/dataset_ms_runner.py). The install is
# skipped while the stamp file records the same requirements. PyYAML, easydict, pandas, tqdm and
# scikit-learn are the model zoo's own requirements, and decorator is what MindSpore's graph-kernel
# build (enable_graph_kernel) imports: tools/zoo_parity.py runs zoo scripts under MindSpore here.
# OpenCV is what MindSpore's CIFAR / MNIST MindRecord converters import (the converter parity tests);
# lxml what the zoo's BERT preprocessing script imports (the CMNLI parity test).
#
# Environment:
#   PYTHON           interpreter used to create .venv-msds (default: python3)
#   TFSPORE_MSDS_SKIP  set to 1 to skip building the environment

_msds_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
_msds_venv="$_msds_root/.venv-msds"
_msds_want="mindspore==2.10.0 numpy<2 pillow pyyaml easydict pandas scikit-learn decorator tqdm opencv-python-headless<4.11 lxml"
_msds_stamp="$_msds_venv/.msds-install-stamp"

if [ "${TFSPORE_MSDS_SKIP:-0}" != "1" ] \
        && [ "$(cat "$_msds_stamp" 2>/dev/null)" != "$_msds_want" ]; then
    echo "Creating $_msds_venv ($_msds_want)" >&2
    if [ ! -x "$_msds_venv/bin/python" ]; then
        "${PYTHON:-python3}" -m venv "$_msds_venv"
    fi
    # Keep the environment out of git without touching the repository's .gitignore.
    printf '*\n' > "$_msds_venv/.gitignore"
    if "$_msds_venv/bin/python" -m pip install --quiet --disable-pip-version-check \
            "mindspore==2.10.0" "numpy<2" pillow pyyaml easydict pandas scikit-learn decorator tqdm \
            "opencv-python-headless<4.11" lxml > "$_msds_venv/.install.log" 2>&1; then
        printf '%s\n' "$_msds_want" > "$_msds_stamp"
    else
        tail -n 20 "$_msds_venv/.install.log" >&2
        echo "warning: could not set up $_msds_venv (log: $_msds_venv/.install.log);" \
             "the dataset parity tests will fail" >&2
    fi
fi
unset _msds_root _msds_venv _msds_want _msds_stamp
