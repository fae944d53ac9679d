"""LambdaCallback: every hook, the old keywords and fit's filtering."""
import pytest

from tfspore.train.callback import LambdaCallback

from tests.train.callback_loop import fake_train, loss_steps, model_eval
from tests.train.callback._common import API, HOOKS, LOSSES


def test_lambda_callback_all_hooks_and_fit_filtering():
    seen = []
    kwargs = {name: (lambda rc, _n=name: seen.append(_n)) for name in HOOKS}
    lam = LambdaCallback(**kwargs)
    fake_train(API, [lam], 1, 1, loss_steps(API, LOSSES), valid={"steps": 1, "metrics": {"acc": 1.0}})
    assert seen == ["on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
                    "on_train_epoch_end", "on_train_end"]  # filtered out of fit's validation
    seen.clear()
    model_eval(API, [lam], 1, lambda cb: 0.5, {})
    assert seen == ["on_eval_begin", "on_eval_epoch_begin", "on_eval_step_begin", "on_eval_step_end",
                    "on_eval_epoch_end", "on_eval_end"]


def test_lambda_callback_old_keywords():
    seen = []
    lam = LambdaCallback(epoch_end=lambda rc: seen.append(rc.original_args().get("mode")))
    fake_train(API, [lam], 2, 1, loss_steps(API, LOSSES))
    model_eval(API, [lam], 1, lambda cb: 0.5, {})
    assert seen == ["train", "train", "eval"]
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        LambdaCallback(foo=print)
