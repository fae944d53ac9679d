"""Tests for ``python -m tfspore`` and the ``mindspore`` import alias."""

import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import tfspore
import tfspore.nn
from tfspore import compat
from tfspore.__main__ import main

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _no_alias():
    """Each test starts and ends without the mindspore alias."""
    compat.unalias_mindspore()
    yield
    compat.unalias_mindspore()


def _write(path: Path, source: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return path


def _run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return subprocess.run(
        [sys.executable, "-m", "tfspore", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _last_json_line(stdout: str) -> dict:
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    assert lines, stdout
    return json.loads(lines[-1])


# ----------------------------------------------------------------- python -m tfspore run


def test_run_resolves_mindspore_to_tfspore(tmp_path):
    project = tmp_path / "project"
    _write(project / "helper.py", "VALUE = 'from the script directory'\n")
    script = _write(project / "train.py", """\
        import json
        import sys

        import mindspore
        import mindspore.nn as nn_by_path
        from mindspore import nn

        import helper

        print(json.dumps({
            "mindspore": mindspore.__name__,
            "nn": nn.__name__,
            "same_nn": nn is nn_by_path,
            "same_module_entry": sys.modules["mindspore.nn"] is sys.modules["tfspore.nn"],
            "same_cell": nn.Cell is sys.modules["tfspore.nn"].Cell,
            "argv": sys.argv,
            "name": __name__,
            "file": __file__,
            "path0": sys.path[0],
            "helper": helper.VALUE,
        }))
        """)
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()

    result = _run_cli("run", str(script), "--epochs", "2", "--", "two words",
                      cwd=workdir)

    assert result.returncode == 0, result.stderr
    out = _last_json_line(result.stdout)
    assert out["mindspore"] == "tfspore"
    assert out["nn"] == "tfspore.nn"
    assert out["same_nn"] and out["same_module_entry"] and out["same_cell"]
    assert Path(out["argv"][0]).name == "train.py"
    assert out["argv"][1:] == ["--epochs", "2", "--", "two words"]
    assert out["name"] == "__main__"
    assert Path(out["file"]).resolve() == script.resolve()
    assert Path(out["path0"]).resolve() == project.resolve()
    assert out["helper"] == "from the script directory"


def test_run_missing_submodule_names_the_mindspore_module(tmp_path):
    script = _write(tmp_path / "uses_parallel.py", """\
        import mindspore
        import mindspore.parallel.nn
        """)

    result = _run_cli("run", str(script), cwd=tmp_path)

    assert result.returncode == 1
    assert "ModuleNotFoundError: No module named 'mindspore.parallel" in result.stderr
    assert ("tfspore does not implement the MindSpore module 'mindspore.parallel"
            in result.stderr)


def test_help_exits_zero():
    result = _run_cli("--help", cwd=REPO_ROOT)

    assert result.returncode == 0, result.stderr
    assert "usage:" in result.stdout
    assert "run SCRIPT" in result.stdout


def test_unknown_command_fails_with_message():
    result = _run_cli("frobnicate", cwd=REPO_ROOT)

    assert result.returncode != 0
    assert "unknown command 'frobnicate'" in result.stderr


# ------------------------------------------------------------------------ main() in process


def test_main_run_returns_script_exit_status_and_restores_state(tmp_path, capsys):
    script = _write(tmp_path / "exits.py", """\
        import sys
        import mindspore
        print("argv:", sys.argv[1:], "module:", mindspore.__name__)
        sys.exit(3)
        """)
    argv_before, path_before = sys.argv[:], sys.path[:]

    assert main(["run", str(script), "--lr", "0.1"]) == 3

    assert "argv: ['--lr', '0.1'] module: tfspore" in capsys.readouterr().out
    assert sys.argv == argv_before
    assert sys.path == path_before
    assert not compat.is_mindspore_aliased()
    assert "mindspore" not in sys.modules or sys.modules["mindspore"] is not tfspore


def test_main_run_script_that_ends_normally_returns_zero(tmp_path):
    script = _write(tmp_path / "ok.py", "import mindspore.nn\n")

    assert main(["run", str(script)]) == 0


def test_main_run_string_exit_code_is_printed(tmp_path, capsys):
    script = _write(tmp_path / "fails.py", "raise SystemExit('training failed')\n")

    assert main(["run", str(script)]) == 1
    assert "training failed" in capsys.readouterr().err


def test_main_run_missing_script(tmp_path, capsys):
    assert main(["run", str(tmp_path / "missing.py")]) == 2
    err = capsys.readouterr().err
    assert "can't open file" in err and "missing.py" in err


def test_main_run_without_script(capsys):
    assert main(["run"]) == 2
    assert "required: SCRIPT" in capsys.readouterr().err


def test_main_run_help(capsys):
    assert main(["run", "--help"]) == 0
    assert "SCRIPT" in capsys.readouterr().out


def test_main_help(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage:")
    assert "run SCRIPT" in out


def test_main_version(capsys):
    assert main(["--version"]) == 0
    assert re.fullmatch(r"tfspore \S+\n", capsys.readouterr().out)


def test_main_without_command(capsys):
    assert main([]) == 2
    assert "missing COMMAND" in capsys.readouterr().err


def test_main_unknown_command_suggests_run(capsys):
    assert main(["train.py"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'train.py'" in err
    assert "run train.py" in err


def test_main_unknown_option(capsys):
    assert main(["--frobnicate"]) == 2
    assert "unrecognized option '--frobnicate'" in capsys.readouterr().err


# ----------------------------------------------------------------------- alias_mindspore


def test_alias_maps_mindspore_modules_to_tfspore():
    compat.alias_mindspore()

    import mindspore
    import mindspore.nn as nn
    from mindspore import nn as nn_from

    assert mindspore is tfspore
    assert nn is tfspore.nn and nn_from is tfspore.nn
    assert sys.modules["mindspore"] is sys.modules["tfspore"]
    assert sys.modules["mindspore.nn"] is sys.modules["tfspore.nn"]
    assert mindspore.nn.Cell is tfspore.nn.Cell
    # The modules keep their tfspore identity.
    assert nn.__name__ == "tfspore.nn"
    assert nn.__spec__.name == "tfspore.nn"


def test_alias_is_idempotent():
    compat.alias_mindspore()
    compat.alias_mindspore()

    finders = [f for f in sys.meta_path if type(f) is type(compat._finder)]
    assert len(finders) == 1
    assert sys.meta_path[0] is compat._finder
    assert compat.is_mindspore_aliased()


def test_unalias_removes_finder_and_aliased_modules():
    compat.alias_mindspore()
    importlib.import_module("mindspore.nn")

    compat.unalias_mindspore()

    assert not compat.is_mindspore_aliased()
    assert compat._finder not in sys.meta_path
    assert sys.modules.get("mindspore") is not tfspore
    assert sys.modules.get("mindspore.nn") is not tfspore.nn
    assert sys.modules["tfspore.nn"] is tfspore.nn
    assert tfspore.nn.__spec__.name == "tfspore.nn"


def test_missing_module_error_names_mindspore_module():
    compat.alias_mindspore()

    with pytest.raises(ModuleNotFoundError) as info:
        importlib.import_module("mindspore.nn.no_such_module_for_tests")

    name = "mindspore.nn.no_such_module_for_tests"
    assert info.value.name == name
    assert str(info.value) == (
        f"No module named '{name}': tfspore does not implement the MindSpore module '{name}'")
    assert name not in sys.modules


def test_missing_dependency_inside_tfspore_is_not_masked(tmp_path, monkeypatch):
    _write(tmp_path / "needs_missing_dependency.py", "import not_a_real_dependency_xyz\n")
    monkeypatch.setattr(tfspore, "__path__", [*tfspore.__path__, str(tmp_path)])
    compat.alias_mindspore()

    with pytest.raises(ModuleNotFoundError) as info:
        importlib.import_module("mindspore.needs_missing_dependency")

    assert info.value.name == "not_a_real_dependency_xyz"


def test_alias_shadows_already_imported_mindspore_and_unalias_restores_it():
    names = ("mindspore", "mindspore.nn")
    saved = {name: sys.modules[name] for name in names if name in sys.modules}
    fakes = {name: types.ModuleType(name) for name in names}
    sys.modules.update(fakes)
    try:
        compat.alias_mindspore()
        import mindspore
        import mindspore.nn

        assert mindspore is tfspore
        assert mindspore.nn is tfspore.nn

        compat.unalias_mindspore()
        assert sys.modules["mindspore"] is fakes["mindspore"]
        assert sys.modules["mindspore.nn"] is fakes["mindspore.nn"]
    finally:
        compat.unalias_mindspore()
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def test_alias_shadows_installed_mindspore():
    if "mindspore" not in sys.modules and importlib.util.find_spec("mindspore") is None:
        pytest.skip("MindSpore is not installed")
    compat.alias_mindspore()

    import mindspore

    assert mindspore is tfspore
