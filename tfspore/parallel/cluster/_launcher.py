"""The process launcher behind ``tfspore launch``: MindSpore's ``msrun`` on ``tf.distribute``.

It starts one process per local device, each running the script as ``tfspore run`` does (with
``mindspore`` resolved to tfspore), with ``TF_CONFIG`` describing every process of the job and the
environment variables MindSpore scripts read (``RANK_ID``, ``RANK_SIZE``, ``DEVICE_ID``,
``MS_WORKER_NUM``, ...). Each process writes its output to ``<log_dir>/worker_<rank>.log``, as
``msrun`` names them. With ``--join True`` the launcher waits for the workers: when one exits with
an error it stops the others (SIGTERM, then SIGKILL after a grace period) and exits non-zero,
printing the end of the failed worker's log.

Several hosts: run the launcher on each with the same ``--worker_num``, ``--local_worker_num``,
``--master_addr`` and ``--master_port`` and its own ``--node_rank``; the launchers exchange their
workers' addresses through ``master_addr:master_port`` (the launcher of node 0 serves them there)
before they start any worker.

This module uses only the standard library.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Optional, Sequence

__all__ = ["LaunchError", "build_parser", "parse_args", "launch", "main"]

_POLL_S = 0.1
_GRACE_S = 5.0
_TAIL_LINES = 40


class LaunchError(Exception):
    """A bad flag or an environment the launcher cannot run the job in."""


def _bool(value: str) -> bool:
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected True or False, but got {value!r}")


def build_parser(prog: str = "tfspore launch") -> argparse.ArgumentParser:
    """The argument parser with ``msrun``'s flags (those that apply on TensorFlow)."""
    parser = argparse.ArgumentParser(
        prog=prog, description="Start a distributed MindSpore job on tfspore: one process per device, "
                               "joined by tf.distribute (msrun's flags).")
    parser.add_argument("--worker_num", type=int, default=8,
                        help="the total number of processes of the job, on all hosts (default 8)")
    parser.add_argument("--local_worker_num", type=int, default=8,
                        help="the number of processes to start on this host (default 8)")
    parser.add_argument("--master_addr", default="127.0.0.1", type=str,
                        help="the address of the host of node 0, where the launchers meet (default 127.0.0.1)")
    parser.add_argument("--master_port", default=8118, type=int,
                        help="the port the launchers meet at on master_addr when the job spans several hosts "
                             "(default 8118)")
    parser.add_argument("--node_rank", default=-1, type=int,
                        help="the index of this host in the job; needed when the job spans several hosts")
    parser.add_argument("--log_dir", default="", type=str,
                        help="the directory of the workers' logs worker_<rank>.log (default: the working directory)")
    parser.add_argument("--join", default=False, type=_bool,
                        help="wait for the workers, stop them all when one fails, and exit with the job's status "
                             "(default False: start them and return, as msrun)")
    parser.add_argument("--cluster_time_out", default=600, type=int,
                        help="seconds the processes may take to find each other (default 600)")
    parser.add_argument("task_script", type=str, help="the training script, followed by its arguments")
    parser.add_argument("task_script_args", nargs=argparse.REMAINDER, help="arguments for the script")
    return parser


def parse_args(argv: Sequence[str], prog: str = "tfspore launch") -> argparse.Namespace:
    """Parse and check the launcher's command line.

    Raises:
        LaunchError: for a value out of range or a script that does not exist.
        SystemExit: for what argparse rejects (unknown flags, a non-int value), with status 2.
    """
    args = build_parser(prog).parse_args(list(argv))
    if args.worker_num <= 0:
        raise LaunchError(f"worker_num must be greater than 0, but got {args.worker_num}.")
    if args.local_worker_num <= 0:
        raise LaunchError(f"local_worker_num must be greater than 0, but got {args.local_worker_num}.")
    if args.local_worker_num > args.worker_num:
        raise LaunchError(f"Total worker number is {args.worker_num}, but got exceeded local worker number: "
                          f"{args.local_worker_num}.")
    if not 0 < args.master_port < 65536:
        raise LaunchError(f"master_port must be in [1, 65535], but got {args.master_port}.")
    if args.cluster_time_out <= 0:
        raise LaunchError(f"cluster_time_out must be greater than 0, but got {args.cluster_time_out}.")
    if args.local_worker_num < args.worker_num:
        if args.worker_num % args.local_worker_num:
            raise LaunchError(f"worker_num ({args.worker_num}) must be a multiple of local_worker_num "
                              f"({args.local_worker_num}): every host starts the same number of processes.")
        nodes = args.worker_num // args.local_worker_num
        if not 0 <= args.node_rank < nodes:
            raise LaunchError(f"node_rank must be in [0, {nodes}) when the job's {args.worker_num} workers span "
                              f"{nodes} hosts of {args.local_worker_num}, but got {args.node_rank}.")
    script = args.task_script
    if script in ("python", "python3"):
        if not args.task_script_args:
            raise LaunchError(f"task_script is {script!r} but no script follows it.")
        script = args.task_script_args[0]
    if not os.path.isfile(script):
        raise LaunchError(f"task_script {script!r} is not a file.")
    return args


def _worker_command(args: argparse.Namespace) -> list:
    script, script_args = args.task_script, list(args.task_script_args)
    if script in ("python", "python3"):
        script, script_args = script_args[0], script_args[1:]
    return [sys.executable, "-m", "tfspore", "run", os.path.abspath(script), *script_args]


def _gpu_ids() -> list:
    """The GPUs this host offers the workers: CUDA_VISIBLE_DEVICES' list, else nvidia-smi's."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return [v.strip() for v in visible.split(",") if v.strip() and v.strip() != "-1"]
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return []
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [str(i) for i, line in enumerate(out.splitlines()) if line.startswith("GPU ")]


def _free_ports(host: str, count: int) -> list:
    socks, ports = [], []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((host, 0))
            socks.append(s)
            ports.append(s.getsockname()[1])
    finally:
        for s in socks:
            s.close()
    return ports


def _local_ip(master_addr: str) -> str:
    """The address of this host as the master sees it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((master_addr, 9))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def _recv_line(conn: socket.socket, deadline: float) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        conn.settimeout(max(deadline - time.monotonic(), 0.01))
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _rendezvous(args: argparse.Namespace, addresses: list) -> list:
    """Every worker's address in rank order, exchanged between the hosts' launchers through the master."""
    nodes = args.worker_num // args.local_worker_num
    deadline = time.monotonic() + args.cluster_time_out
    server = None
    if args.node_rank == 0:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            server.bind(("", args.master_port))
        except OSError as exc:
            server.close()
            raise LaunchError(f"node 0 cannot listen on port {args.master_port} ({exc}); choose another "
                              "--master_port.") from None
        server.listen(nodes)
    try:
        if server is None:
            table = _ask_master(args, addresses, deadline)
        else:
            table = _serve(server, nodes, addresses, deadline)
    except (OSError, ValueError) as exc:
        raise LaunchError(f"the hosts' launchers did not meet at {args.master_addr}:{args.master_port} within "
                          f"--cluster_time_out {args.cluster_time_out} s ({exc}).") from None
    finally:
        if server is not None:
            server.close()
    return table


def _ask_master(args: argparse.Namespace, addresses: list, deadline: float) -> list:
    message = json.dumps({"node_rank": args.node_rank, "workers": addresses}).encode() + b"\n"
    while True:
        try:
            with socket.create_connection((args.master_addr, args.master_port), timeout=5) as conn:
                conn.sendall(message)
                reply = json.loads(_recv_line(conn, deadline))
                if "error" in reply:
                    raise LaunchError(reply["error"])
                return reply["workers"]
        except (ConnectionRefusedError, socket.timeout):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _serve(server: socket.socket, nodes: int, addresses: list, deadline: float) -> list:
    by_node, conns = {0: addresses}, []
    try:
        while len(by_node) < nodes:
            server.settimeout(max(deadline - time.monotonic(), 0.01))
            conn, _ = server.accept()
            request = json.loads(_recv_line(conn, deadline))
            node = request.get("node_rank")
            if node in by_node or not isinstance(node, int) or not 0 <= node < nodes:
                conn.sendall(json.dumps({"error": f"node_rank {node!r} is taken or out of [0, {nodes})."}).encode()
                             + b"\n")
                conn.close()
                continue
            by_node[node] = request["workers"]
            conns.append(conn)
        table = [a for node in range(nodes) for a in by_node[node]]
        for conn in conns:
            conn.sendall(json.dumps({"workers": table}).encode() + b"\n")
        return table
    finally:
        for conn in conns:
            conn.close()


def _tail(path: str, lines: int = _TAIL_LINES) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(size - 64 * 1024, 0))
            text = f.read().decode("utf-8", "replace")
    except OSError as exc:
        return f"(cannot read {path}: {exc})"
    return "\n".join(text.splitlines()[-lines:])


class _Worker:
    def __init__(self, rank: int, local_rank: int, log_path: str, process: subprocess.Popen) -> None:
        self.rank, self.local_rank, self.log_path, self.process = rank, local_rank, log_path, process


def _stop(workers: list) -> None:
    """SIGTERM every running worker's process group, then SIGKILL what is left after the grace period."""
    for sig, wait_s in ((signal.SIGTERM, _GRACE_S), (signal.SIGKILL, _GRACE_S)):
        running = [w for w in workers if w.process.poll() is None]
        for w in running:
            try:
                os.killpg(w.process.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and any(w.process.poll() is None for w in running):
            time.sleep(_POLL_S)


def _exit_status(code: int) -> int:
    if 0 < code < 256:
        return code
    return 128 - code if code < 0 else 1


def _supervise(workers: list, out: object) -> int:
    """Wait for the workers; on the first failure stop the others. Returns the job's exit status."""
    interrupted: list = []

    def on_signal(signum: int, _frame: object) -> None:
        interrupted.append(signum)

    # signal handlers can only be set from the main thread (a launcher run from a thread goes without)
    in_main = threading.current_thread() is threading.main_thread()
    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)} if in_main else {}
    try:
        while True:
            if interrupted:
                _stop(workers)
                out.write(f"tfspore launch: received signal {interrupted[0]}; stopped all workers.\n")
                return 128 + interrupted[0]
            failed = next((w for w in workers if w.process.poll() not in (None, 0)), None)
            if failed is not None:
                code = failed.process.returncode
                _stop(workers)
                how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
                out.write(f"tfspore launch: worker {failed.rank} (pid {failed.process.pid}) {how}; stopped the "
                          f"other workers. The last lines of {failed.log_path}:\n{_tail(failed.log_path)}\n")
                out.flush()
                return _exit_status(code)
            if all(w.process.poll() == 0 for w in workers):
                return 0
            time.sleep(_POLL_S)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def launch(args: argparse.Namespace, out: object = None) -> int:
    """Start the job's local workers; with ``args.join``, supervise them and return the job's status.

    Raises:
        LaunchError: when the GPUs are fewer than the local workers, or the hosts do not meet.
    """
    out = sys.stdout if out is None else out
    gpus = _gpu_ids()
    if gpus and len(gpus) < args.local_worker_num:
        raise LaunchError(f"local_worker_num is {args.local_worker_num}, but this host has {len(gpus)} GPUs "
                          f"({','.join(gpus)}): start at most one worker per GPU.")
    single_host = args.local_worker_num == args.worker_num
    if single_host:
        if args.node_rank not in (-1, 0):
            out.write(f"tfspore launch: all workers run on this host, so node_rank {args.node_rank} is ignored.\n")
        node_rank, host = 0, "127.0.0.1"
        table = [f"{host}:{p}" for p in _free_ports(host, args.local_worker_num)]
    else:
        node_rank, host = args.node_rank, _local_ip(args.master_addr)
        mine = [f"{host}:{p}" for p in _free_ports("", args.local_worker_num)]
        table = _rendezvous(args, mine)
    log_dir = os.path.abspath(args.log_dir or ".")
    os.makedirs(log_dir, exist_ok=True)
    command = _worker_command(args)
    workers = []
    for local_rank in range(args.local_worker_num):
        rank = node_rank * args.local_worker_num + local_rank
        env = dict(os.environ)
        env.pop("RANK_TABLE_FILE", None)
        env.update({
            "TF_CONFIG": json.dumps({"cluster": {"worker": table}, "task": {"type": "worker", "index": rank}}),
            "RANK_ID": str(rank), "RANK_SIZE": str(args.worker_num), "DEVICE_ID": str(local_rank),
            "LOCAL_RANK": str(local_rank), "LOCAL_RANK_SIZE": str(args.local_worker_num),
            "MS_WORKER_NUM": str(args.worker_num), "MS_SCHED_HOST": args.master_addr,
            "MS_SCHED_PORT": str(args.master_port), "MS_TOPO_TIMEOUT": str(args.cluster_time_out),
            "MS_NODE_ID": str(rank), "MS_ROLE": "MS_WORKER", "PYTHONUNBUFFERED": "1"})
        if gpus:
            env["CUDA_VISIBLE_DEVICES"] = gpus[local_rank]
        log_path = os.path.join(log_dir, f"worker_{rank}.log")
        out.write(f"Start worker process with rank id:{rank}, log file:{log_path}. Environment variable "
                  f"[RANK_ID={rank}] is exported. Execute command: {' '.join(command)}\n")
        out.flush()
        with open(log_path, "w", encoding="utf-8") as log:
            process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        workers.append(_Worker(rank, local_rank, log_path, process))
    if not args.join:
        out.write(f"Distributed job is spawned; the workers write their logs to {log_dir}.\n")
        return 0
    out.write("Distributed job is spawned. Waiting all processes to exit...\n")
    out.flush()
    return _supervise(workers, sys.stderr if out is sys.stdout else out)


def main(argv: Optional[Sequence[str]] = None, prog: str = "tfspore launch") -> int:
    """Entry point of ``tfspore launch``: parse the flags, start the job, return its exit status.

    Args:
        argv: the flags and the script with its arguments (``sys.argv[1:]`` when None).
        prog: the program name shown in messages.

    Returns:
        0 when the job started (``--join False``) or ended well (``--join True``), 2 for a bad flag,
        else the failed worker's exit status.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parse_args(argv, prog)
        return launch(args)
    except LaunchError as exc:
        sys.stderr.write(f"{prog}: error: {exc}\n")
        return 2
    except SystemExit as exc:  # argparse's usage errors and --help
        return exc.code if isinstance(exc.code, int) else 2
