"""The benchmark runner end to end, on a tiny run: one process per configuration, the table and
one machine-readable record per workload (the real figures come from ``bench/run.py`` itself)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_runner_prints_a_table_and_a_record_per_workload():
    configs = "tf loop,tfspore,tfspore sink=N"
    proc = subprocess.run(
        [sys.executable, "-m", "bench.run", "--workloads", "mlp", "--configs", configs, "--epochs", "2",
         "--steps", "4", "--sink_size", "2", "--repeats", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    records = [json.loads(line) for line in lines if line.startswith("{")]
    assert len(records) == 1
    record = records[0]
    assert (record["workload"], record["steps_per_epoch"], record["epochs"], record["sink_size"]) == ("mlp", 4, 2, 2)
    assert set(record["results"]) == {"tf loop", "tfspore", "tfspore sink=N"}
    for label, result in record["results"].items():
        assert "error" not in result, (label, result)
        assert result["ms_per_step"] > 0 and result["first_epoch_s"] > 0 and result["peak_rss_mb"] > 100
        assert result["runs"] == 1 and result["steps_per_epoch"] == 4
    table = [line for line in lines if line.startswith("| ")]
    assert table[0].startswith("| config | first epoch s")
    assert {row.split("|")[1].strip() for row in table[1:]} == {"tf loop", "tfspore", "tfspore sink=2"}
