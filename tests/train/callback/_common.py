"""Shared pieces of the callback tests: the fake training loop's API, losses, the hook names and
recording callbacks."""
import numpy as np

import tfspore as ms
from tfspore import nn
from tfspore.train.callback import Callback

from tests.train.callback_loop import tfspore_api

API = tfspore_api()
LOSSES = [1.3855382204055786, 1.5140371322631836, 1.4326097965240479]
HOOKS = ["on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
         "on_train_epoch_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_step_begin",
         "on_eval_step_end", "on_eval_epoch_end", "on_eval_end"]
TIME_LINE = r"(Train|Eval) epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms"


def printed_lines(capsys):
    return [line for line in capsys.readouterr().out.splitlines() if line]


def net_and_opt(lr=0.1):
    net = nn.Dense(4, 3)
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, opt


def epoch_losses(values):
    """A step function whose loss is values[epoch - 1] on every step."""
    return lambda cb: ms.Tensor(np.float32(values[cb.cur_epoch_num - 1]))


class Recorder(Callback):
    """Records every new-name hook (and lets the old names forward)."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __getattribute__(self, name):
        if name in HOOKS:
            calls = object.__getattribute__(self, "calls")
            base = object.__getattribute__(self, name)

            def hook(run_context):
                calls.append((name, run_context.original_args().get("cur_step_num")))
                return base(run_context)
            return hook
        return object.__getattribute__(self, name)


class Spy(Callback):
    """A custom callback defining an old hook name (step_end)."""

    def step_end(self, run_context):
        pass
