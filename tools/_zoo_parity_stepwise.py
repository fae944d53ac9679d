"""Step-by-step comparison from MindSpore's own states (used by zoo_parity.py ``--stepwise``).

Where a network amplifies rounding, two correct float32 implementations leave each other after a
few steps: the losses of steps 2 to 5 then say little about whether each step is computed as
MindSpore computes it. This comparison takes that amplification out. MindSpore trains the
script's steps once and saves its whole training state after every step (the network's
parameters, the optimizer's moments and step counter, a loss scale: ``state_<k>.ckpt``); then, for
every ``k``, tfspore starts from MindSpore's state after step ``k``, trains exactly one step on the
batch MindSpore trained step ``k + 1`` on (the dataset source reads the same records, rotated so
that epoch and learning-rate schedule keep their length), and saves its own state. Step ``k + 1``
matches when tfspore's loss equals MindSpore's loss of that step and tfspore's parameters after it
equal MindSpore's after it, at float32 tolerance (each parameter at the scale of its largest
element, see :class:`ParamDiff`): the forward pass, the gradients and the optimizer's update of
one step, from the same state, on the same batch.
"""
from __future__ import annotations

import dataclasses
import json
import os
from typing import Callable, Optional, Sequence

import numpy as np

__all__ = ["StepCheck", "ParamDiff", "compare_states", "rotated_order", "run_stepwise", "summarize", "to_json"]


@dataclasses.dataclass
class ParamDiff:
    """The worst parameter of a group, by its distance from tolerance.

    A parameter is compared as a whole, at the scale of its largest element: ``max|tf - ms|``
    against ``atol + rtol * max|ms|``. An element-wise relative test would fail on every
    gradient-like tensor (the optimizer's moments): their small elements are sums whose terms
    cancel, and two correct float32 summation orders give them relative differences of any size.

    Attributes:
        name: The parameter's name (``""`` when the group is empty).
        max_abs: Its largest absolute difference.
        ratio: ``max|tf - ms| / (atol + rtol * max|ms|)``; at most 1 is a match.
        count: Parameters in the group.
    """

    name: str = ""
    max_abs: float = 0.0
    ratio: float = 0.0
    count: int = 0

    @property
    def ok(self) -> bool:
        """Whether every parameter of the group is within tolerance."""
        return self.ratio <= 1.0


@dataclasses.dataclass
class StepCheck:
    """Step ``step`` of the script, trained by tfspore from MindSpore's state after the step before.

    Attributes:
        step: The step (from 2).
        ms_loss: MindSpore's loss of the step.
        tf_loss: tfspore's loss of the step from MindSpore's state, or ``None`` when it failed.
        weights: The worst network parameter after the step.
        state: The worst other training-cell parameter (optimizer moments, step, loss scale).
        error: Why tfspore's run failed, or ``""``.
    """

    step: int
    ms_loss: float
    tf_loss: Optional[float] = None
    weights: ParamDiff = dataclasses.field(default_factory=ParamDiff)
    state: ParamDiff = dataclasses.field(default_factory=ParamDiff)
    error: str = ""
    rtol: float = 1e-4
    atol: float = 1e-5
    spread_loss: Optional[float] = None
    spread_weights: Optional[ParamDiff] = None
    spread_state: Optional[ParamDiff] = None
    factor: float = 4.0

    @property
    def loss_ok(self) -> bool:
        """Whether the losses agree at the tolerance."""
        return self.tf_loss is not None and abs(self.tf_loss - self.ms_loss) <= self.atol + self.rtol * abs(self.ms_loss)

    @property
    def ok(self) -> bool:
        """Whether loss, weights and optimizer state all agree."""
        return not self.error and self.loss_ok and self.weights.ok and self.state.ok

    @property
    def within_spread(self) -> bool:
        """Whether a step outside the tolerance is within ``factor`` times MindSpore's own one-step
        spread: MindSpore from the same state with a random half of its float32 values moved by
        one ulp, against MindSpore from the state itself."""
        if self.error or self.tf_loss is None or self.spread_weights is None or self.spread_state is None \
                or self.spread_loss is None:
            return False
        loss_ok = self.loss_ok or abs(self.tf_loss - self.ms_loss) <= self.factor * abs(self.spread_loss - self.ms_loss)
        return (loss_ok and self.weights.ratio <= max(1.0, self.factor * self.spread_weights.ratio)
                and self.state.ratio <= max(1.0, self.factor * self.spread_state.ratio))


def rotated_order(records: int, start: int) -> list[int]:
    """The record indices ``start, start + 1, ..., records - 1, 0, ..., start - 1``."""
    if not 0 <= start < records:
        raise ValueError(f"For 'rotated_order', the 'start' must be in [0, {records}), but got {start}.")
    return list(range(start, records)) + list(range(start))


def _worst(names: Sequence[str], ms: dict, tf: dict, rtol: float, atol: float) -> ParamDiff:
    worst = ParamDiff(count=len(names))
    for name in names:
        a = np.asarray(ms[name], dtype=np.float64)
        b = np.asarray(tf[name], dtype=np.float64)
        if a.shape != b.shape:
            return ParamDiff(name, float("inf"), float("inf"), len(names))
        if a.size == 0:
            continue
        diff = np.abs(b - a)
        ratio = float(np.max(diff) / (atol + rtol * np.max(np.abs(a))))
        if ratio > worst.ratio or not worst.name:
            worst = ParamDiff(name, float(np.max(diff)), ratio, len(names))
    return worst


def compare_states(ms: dict, tf: dict, network: Sequence[str], rtol: float = 1e-4,
                   atol: float = 1e-5) -> tuple[ParamDiff, ParamDiff]:
    """Compares two training states (``{name: array}``) parameter by parameter.

    Args:
        ms: MindSpore's state.
        tf: tfspore's state.
        network: The names of the network's own parameters (the rest are optimizer state).
        rtol: Relative tolerance.
        atol: Absolute tolerance.

    Returns:
        ``(weights, state)``: the worst network parameter and the worst other parameter. A name
        in one state and not the other is reported as the worst, with an infinite ratio.
    """
    missing = sorted(set(ms) ^ set(tf))
    if missing:
        bad = ParamDiff(f"{missing[0]} (in one state only)", float("inf"), float("inf"), len(missing))
        return (bad, ParamDiff()) if missing[0] in network else (ParamDiff(), bad)
    names = [n for n in ms if np.asarray(ms[n]).dtype.kind == "f"]
    net = [n for n in names if n in set(network)]
    other = [n for n in names if n not in set(network)]
    return _worst(net, ms, tf, rtol, atol), _worst(other, ms, tf, rtol, atol)


def run_stepwise(steps: int, batch: int, ms_states: str, ms_losses: Sequence[float], network: Sequence[str],
                 run_tf: Callable[[int, dict], tuple[int, str]], parse_first_loss: Callable[[str], Optional[float]],
                 read_ckpt: Callable[[str], dict], workdir: str, rtol: float = 1e-4,
                 atol: float = 1e-5, run_ms: Optional[Callable[[int, dict], tuple[int, str]]] = None) -> list[StepCheck]:
    """tfspore trains each step ``k + 1`` (``k = 1 .. steps - 1``) from MindSpore's state after ``k``.

    Args:
        steps: Steps of MindSpore's run.
        batch: Records per step.
        ms_states: Folder of MindSpore's ``state_<k>.ckpt``.
        ms_losses: MindSpore's losses of steps 1 .. ``steps``.
        network: Names of the network's parameters.
        run_tf: Runs tfspore with extra launcher settings; ``(k, settings) -> (exit code, log)``.
        run_ms: Runs MindSpore the same way, or ``None``; where a step is outside the tolerance,
            MindSpore trains it again from its state moved by one ulp (:attr:`StepCheck.within_spread`).
        parse_first_loss: The first loss a log printed.
        read_ckpt: Reads a checkpoint into ``{name: numpy array}``.
        workdir: Folder for tfspore's states (``tf_state_<k>/``).
        rtol: Relative tolerance.
        atol: Absolute tolerance.

    Returns:
        One :class:`StepCheck` per step from 2.
    """
    checks = []
    for k in range(1, steps):
        check = StepCheck(k + 1, float(ms_losses[k]), rtol=rtol, atol=atol)
        out = os.path.join(workdir, f"tf_state_{k}")
        settings = {"load_state": os.path.join(ms_states, f"state_{k}.ckpt"),
                    "sample_order": rotated_order(steps * batch, k * batch), "save_state": out, "stop_after": 1}
        code, log = run_tf(k, settings)
        check.tf_loss = parse_first_loss(log)
        saved = os.path.join(out, "state_1.ckpt")
        if code != 0 or not os.path.isfile(saved):
            check.error = f"tfspore's run from MindSpore's state after step {k} failed (exit {code})"
        else:
            reference = read_ckpt(os.path.join(ms_states, f"state_{k + 1}.ckpt"))
            check.weights, check.state = compare_states(reference, read_ckpt(saved), network, rtol, atol)
            if not check.ok and run_ms is not None:
                spread_out = os.path.join(workdir, f"ms_ulp_state_{k}")
                code, log = run_ms(k, dict(settings, save_state=spread_out, perturb_ulp=k))
                spread_saved = os.path.join(spread_out, "state_1.ckpt")
                if code == 0 and os.path.isfile(spread_saved):
                    check.spread_loss = parse_first_loss(log)
                    check.spread_weights, check.spread_state = compare_states(reference, read_ckpt(spread_saved),
                                                                              network, rtol, atol)
        checks.append(check)
    return checks


def summarize(checks: Sequence[StepCheck]) -> str:
    """One sentence for the report: how many steps matched from MindSpore's state, and the worst."""
    if not checks:
        return ""
    good = sum(c.ok for c in checks)
    spread = sum(c.within_spread for c in checks if not c.ok)
    failed = [c for c in checks if c.error]
    worst_loss = max((abs(c.tf_loss - c.ms_loss) / max(abs(c.ms_loss), 1e-30) for c in checks
                      if c.tf_loss is not None), default=float("nan"))
    worst_w = max(checks, key=lambda c: c.weights.ratio)
    worst_s = max(checks, key=lambda c: c.state.ratio)
    text = (f"from MindSpore's own state, {good} of {len(checks)} steps (2-{len(checks) + 1}) match in loss, "
            f"weights and optimizer state (largest loss rel. diff {worst_loss:.1e}; weights at "
            f"{worst_w.weights.ratio:.2f} of the tolerance, {worst_w.weights.name} at step {worst_w.step}; "
            f"optimizer state at {worst_s.state.ratio:.2f}, {worst_s.state.name})")
    if spread:
        outside = [c for c in checks if not c.ok]
        worst = max(outside, key=lambda c: c.weights.ratio)
        text += (f"; {spread} of the other {len(outside)} within {worst.factor:g}x MindSpore's own one-step spread "
                 f"(MindSpore from its state with one-ulp changes: weights at {worst.spread_weights.ratio:.2f} "
                 f"of the tolerance at step {worst.step})")
    if failed:
        text += f"; {len(failed)} run(s) failed: {failed[0].error}"
    return text


def to_json(checks: Sequence[StepCheck]) -> str:
    """The checks as JSON text (for the report file)."""
    return json.dumps([dict(dataclasses.asdict(c), ok=c.ok, loss_ok=c.loss_ok, within_spread=c.within_spread)
                       for c in checks])
