"""``mindspore.parallel.cluster.run``: the entry point of ``msrun``, here of ``tfspore launch``.

Example:
    $ python -m tfspore launch --worker_num 2 --local_worker_num 2 --join True train.py --epochs 1
"""
from tfspore.parallel.cluster._launcher import LaunchError, launch, main, parse_args

__all__ = ["main", "launch", "parse_args", "LaunchError"]
