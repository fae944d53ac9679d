"""The wheel installs the `tfspore` command with `ckpt`, `export` and `convert` (no repository checkout needed)."""
import os
import shutil
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pip(*args, cwd):
    run = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args],
                         cwd=cwd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


def test_wheel_installs_the_tfspore_command_and_its_model_commands(tmp_path):
    # Build from a copy of what the wheel is made of, so the checkout gets no build/ or egg-info.
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), src / name)
    shutil.copytree(os.path.join(ROOT, "tfspore"), src / "tfspore", ignore=shutil.ignore_patterns("__pycache__"))
    _pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(tmp_path / "dist"), str(src),
         cwd=str(tmp_path))
    wheels = os.listdir(tmp_path / "dist")
    assert len(wheels) == 1 and wheels[0].startswith("tfspore-") and wheels[0].endswith(".whl"), wheels
    wheel = str(tmp_path / "dist" / wheels[0])
    names = zipfile.ZipFile(wheel).namelist()
    assert {"tfspore/cli/__init__.py", "tfspore/cli/ckpt.py", "tfspore/cli/export.py", "tfspore/cli/convert.py",
            "tfspore/train/tf_export.py", "tfspore/__main__.py"} <= set(names)
    assert not [n for n in names if n.startswith(("tools/", "tests/"))]
    _pip("install", "--no-deps", "--no-index", "--target", str(tmp_path / "site"), wheel, cwd=str(tmp_path))
    script = tmp_path / "site" / "bin" / "tfspore"
    assert script.is_file() and os.access(script, os.X_OK)

    # Run the installed command from an empty folder: tfspore comes from the installed copy.
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"), TF_CPP_MIN_LOG_LEVEL="2")
    env.pop("PYTHONSAFEPATH", None)
    # find_spec locates the package without importing it (and TensorFlow)
    find = "import importlib.util; print(importlib.util.find_spec('tfspore').origin)"
    where = subprocess.run([sys.executable, "-c", find],
                           cwd=str(work), env=env, capture_output=True, text=True, timeout=300)
    assert where.stdout.strip() == str(tmp_path / "site" / "tfspore" / "__init__.py"), where.stdout + where.stderr
    runs = {command: subprocess.Popen([str(script), command, "--help"], cwd=str(work), env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for command in ("ckpt", "export", "convert")}
    for command, proc in runs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
        assert f"usage: tfspore {command}" in out
