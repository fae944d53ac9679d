"""One benchmark configuration in its own process (started by ``bench/run.py``).

Prints one line ``BENCH_RESULT {json}`` with the epoch end times (seconds since the train call)
and this process's peak resident memory.

Example:
    python -m bench.worker --framework tfspore --config sink --workload mlp --epochs 4 --steps 200
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("GLOG_v", "3")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._spec import WORKLOADS, summarize  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--framework", required=True, choices=["tfspore", "mindspore", "keras", "tf"])
    parser.add_argument("--config", required=True, help="nonsink | sink (tfspore, mindspore); spe1 | speN (keras); "
                                                       "step | loopN (tf)")
    parser.add_argument("--workload", required=True, choices=sorted(WORKLOADS))
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--sink_size", type=int, default=10)
    args = parser.parse_args(argv)
    workload = WORKLOADS[args.workload]
    steps = args.steps or workload.steps
    if args.framework in ("tfspore", "mindspore"):
        os.environ["BENCH_MS_MODULE"] = args.framework
        from bench import _ms_models
        out = _ms_models.run(workload, args.config, args.epochs, steps, args.sink_size)
    else:
        from bench import _keras_models
        n = 1 if args.config in ("spe1", "step") else args.sink_size
        if args.framework == "keras":
            out = _keras_models.run_fit(workload, n, args.epochs, steps)
        else:
            out = _keras_models.run_loop(workload, n, args.epochs, steps)
    out.update(summarize(out["epoch_ends"], steps))
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    out["steps"] = steps
    print("BENCH_RESULT " + json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
