"""Where each process of a distributed job writes its files, so that ranks sharing a folder never collide.

MindSpore runs one process per device and asks each to write into its own folder: ModelCheckpoint's
note says "In the distributed training scenario, please specify different directories for each
training process to save the checkpoint file", and the model zoo does so
(``save_checkpoint_path + "ckpt_" + str(get_rank())``, ``summary_dir + "/rank_" + str(rank)``).
MindSpore's own per-rank folders are named ``rank_<id>`` (``OnRequestExit``, the
distributed-checkpoint tools). When several ranks name the same folder, MindSpore's writers
collide: the same checkpoint names written through the same ``<name>.tmp``, and one summary
folder (one TensorBoard run) holding every rank's events.

tfspore gives every folder one owner among the ranks (:func:`folder_owner`): the rank its name
ends with (``ckpt_1``, ``rank_1``, ``device1``: the zoo's per-rank folders), else rank 0. The owner
writes into the folder the script names; every other rank writes into its ``rank_<id>`` folder
inside it (:func:`rank_directory`). So the zoo's per-rank folders and a rank-0-only writer keep
MindSpore's paths exactly, and ranks that share a folder never share a file. Outside a job of
several processes nothing changes.

The rank and the job size are those ``tfspore.communication.get_rank()`` / ``get_group_size()``
report in a process of a job, before and after ``init()``: from the launcher's (or ``mpirun``'s)
cluster description, else from ``RANK_ID`` / ``RANK_SIZE``. A single process driving several
local devices is one writer, whatever its replica count.

This module imports nothing from the other tfspore packages.

Example:
    >>> from tfspore._internal import rank_dirs
    >>> rank_dirs.rank_directory("/data/ckpt")       # a plain process
    '/data/ckpt'
    >>> rank_dirs.folder_owner("/data/ckpt_1", 8), rank_dirs.folder_owner("/data/ckpt", 8)
    (1, 0)
"""
from __future__ import annotations

import os
import re

from tfspore._internal import cluster

__all__ = ["job_size", "job_rank", "folder_owner", "rank_directory"]


def _env_count(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    return int(value) if value.isdigit() else None


def job_size() -> int:
    """The number of processes of this process's job (1 for a plain process).

    The launcher's or ``mpirun``'s cluster when the environment describes one (``TF_CONFIG``,
    OpenMPI's variables), else ``RANK_SIZE``, else 1.
    """
    try:
        size = cluster.cluster_size()
    except cluster.ClusterError:
        size = 1
    if size > 1:
        return size
    return max(_env_count("RANK_SIZE") or 1, 1)


def job_rank() -> int:
    """This process's rank in its job (0 for a plain process): the cluster's index, else ``RANK_ID``."""
    try:
        if cluster.cluster_size() > 1:
            return cluster.cluster_rank()
    except cluster.ClusterError:
        pass
    return _env_count("RANK_ID") or 0


def folder_owner(path: str, size: int) -> int:
    """The rank of a job of ``size`` ranks that writes directly into ``path``.

    The number the last component of ``path`` ends with when it is a rank of the job (``ckpt_1``,
    ``rank_1``, ``device1`` belong to rank 1; ``ckpt_11`` to rank 11, or to rank 0 in a job of
    fewer ranks), else 0.
    """
    match = re.search(r"[0-9]+$", os.path.basename(os.path.normpath(path)))
    number = int(match.group()) if match else 0
    return number if number < size else 0


def rank_directory(path: str) -> str:
    """The folder this process writes into when a script names ``path``.

    ``path`` itself in a plain process, or when this process's rank owns it (see
    :func:`folder_owner`); otherwise ``<path>/rank_<rank>``, which this rank owns (so applying the
    rule again changes nothing). Two ranks of one job never get the same folder, since every
    folder has one owner and a rank only writes into folders it owns. The folder is not created
    here.

    Args:
        path: the folder a script passes (``ModelCheckpoint(directory=...)``,
            ``SummaryRecord(log_dir=...)``, ``SummaryCollector(summary_dir=...)``).

    Returns:
        str: the folder to write into.
    """
    size = job_size()
    if size <= 1:
        return path
    rank = job_rank()
    if folder_owner(path, size) == rank:
        return path
    return os.path.join(path, f"rank_{rank}")
