"""Every tfspore callback in keras.Model.fit through as_keras_callback."""
import os
import signal

import numpy as np
import pytest

keras = pytest.importorskip("keras")

import tfspore as ms  # noqa: E402
from tfspore.keras import KerasCell  # noqa: E402
from tfspore.train.callback import (BackupAndRestore, Callback, EarlyStopping, History, LambdaCallback,  # noqa: E402
                                    LearningRateScheduler, LossMonitor, ModelCheckpoint, OnRequestExit,
                                    ReduceLROnPlateau, SummaryCollector, TimeMonitor, as_keras_callback)

X = np.random.RandomState(0).randn(12, 4).astype(np.float32)
Y = (np.arange(12) % 3).astype(np.int32)


def _keras_model(lr=0.1, optimizer=None):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="fc")], name="net")
    model.compile(optimizer=optimizer or keras.optimizers.SGD(lr, momentum=0.9),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def _fit(model, callbacks, epochs=2, **kw):
    kw.setdefault("verbose", 0)
    return model.fit(X, Y, batch_size=4, epochs=epochs, shuffle=False,
                     callbacks=[as_keras_callback(c) for c in callbacks], **kw)


def test_custom_callback_sees_mindspore_cb_params():
    seen = {}

    class Probe(Callback):
        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            seen.setdefault("steps", []).append(cb.cur_step_num)
            seen["names"] = [p.name for p in cb.network.trainable_params()]
            seen["state"] = len(list(cb.train_network.get_parameters()))
            seen["model"] = cb.keras_model
            seen["lr"] = float(cb.optimizer.learning_rate.asnumpy())
    model = _keras_model()
    _fit(model, [Probe()])
    assert seen["steps"] == [1, 2, 3, 4, 5, 6] and seen["model"] is model
    assert seen["names"] == ["fc_kernel", "fc_bias"] and seen["state"] == 6  # + SGD's iteration, lr, 2 momenta
    assert seen["lr"] == pytest.approx(0.1)


def test_loss_monitor(capsys):
    _fit(_keras_model(), [LossMonitor(3)])
    assert [line.split(",")[0] for line in capsys.readouterr().out.splitlines()] == ["epoch: 1 step: 3",
                                                                                  "epoch: 2 step: 3"]


def test_time_monitor(capsys):
    _fit(_keras_model(), [TimeMonitor()])
    assert [line.split(":")[0] for line in capsys.readouterr().out.splitlines()] == ["Train epoch time"] * 2


def test_history():
    history = History()
    _fit(_keras_model(), [history], validation_data=(X, Y))
    assert history.epoch == {"epoch": [1, 2]}
    assert len(history.history["net_output"]) == 2 and len(history.history["loss"]) == 2  # validation loss


def test_lambda_callback():
    ends = []
    _fit(_keras_model(), [LambdaCallback(on_train_epoch_end=lambda rc: ends.append(rc.original_args().cur_epoch_num))])
    assert ends == [1, 2]


def test_early_stopping():
    history = _fit(_keras_model(lr=0.0), [EarlyStopping(monitor="eval_loss", patience=0)], epochs=4,
                   validation_data=(X, Y))
    assert len(history.epoch) == 2


def test_reduce_lr_on_plateau():
    model = _keras_model()
    _fit(model, [ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=0, min_delta=100.0)], epochs=2,
         validation_data=(X, Y))
    assert float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.05)  # after epoch 2 (patience 0 as 1)


def test_learning_rate_scheduler():
    model = _keras_model()
    _fit(model, [LearningRateScheduler(lambda lr, step: 0.05 if step == 2 else lr)])
    assert float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.05)


def test_model_checkpoint_holds_weights_and_optimizer_state(tmp_path):
    model = _keras_model()
    ckpt = ModelCheckpoint("net", str(tmp_path))
    _fit(model, [ckpt])
    params = ms.load_checkpoint(ckpt.latest_ckpt_file_name)
    np.testing.assert_array_equal(params["fc_kernel"].asnumpy(), model.layers[0].kernel.numpy())
    assert any("momentum" in name for name in params)
    fresh = _keras_model()
    ms.load_param_into_net(KerasCell(fresh), params)
    np.testing.assert_allclose(fresh.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6)


def test_backup_and_restore(tmp_path):
    reference = _keras_model()
    _fit(reference, [], epochs=3)

    class CrashAt3(Callback):
        def on_train_epoch_begin(self, run_context):
            if run_context.original_args().cur_epoch_num == 3:
                raise RuntimeError("killed")
    model = _keras_model()
    with pytest.raises(RuntimeError, match="killed"):
        _fit(model, [BackupAndRestore(str(tmp_path)), CrashAt3()], epochs=3)
    model = _keras_model()  # fresh weights and optimizer: restored from the backup (epoch by initial_epoch)
    _fit(model, [BackupAndRestore(str(tmp_path))], epochs=3, initial_epoch=2)
    for restored, expected in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(restored, expected, rtol=1e-5, atol=1e-6)


def test_on_request_exit(tmp_path):
    class Signal(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 2:
                os.kill(os.getpid(), signal.SIGTERM)
    model = _keras_model()
    history = _fit(model, [Signal(), OnRequestExit(save_mindir=False, file_name="exit", directory=str(tmp_path))],
                   epochs=3)
    assert len(history.epoch) == 1  # stopped in the first epoch
    (path,) = tmp_path.glob("rank_*/exit_train.ckpt")
    saved = ms.load_checkpoint(str(path))
    assert int(saved["step_num"].asnumpy()) == 2
    assert tuple(saved["fc_kernel"].shape) == (4, 3)


def test_summary_collector_records_the_loss(tmp_path):
    from tensorboard.backend.event_processing import plugin_event_multiplexer
    from tensorboard.util import tensor_util
    summary_dir = tmp_path / "summary"
    _fit(_keras_model(), [SummaryCollector(str(summary_dir), collect_freq=1,
                                           collect_specified_data={"collect_landscape": None})])
    mux = plugin_event_multiplexer.EventMultiplexer()
    mux.AddRunsFromDirectory(str(summary_dir))
    mux.Reload()
    run = list(mux.Runs())[0]
    loss = [(e.step, float(tensor_util.make_ndarray(e.tensor_proto))) for e in mux.Tensors(run, "loss/auto")]
    assert sorted({s for s, _ in loss}) == [1, 2, 3, 4, 5, 6] and all(np.isfinite(v) for _, v in loss)
    assert "train_lineage" in mux.PluginRunToTagToContent("text").get(run, {})
