"""ModelCheckpoint and CheckpointConfig: policies, file names, retention, contents, encryption."""
import os
import re

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train.callback import CheckpointConfig, ModelCheckpoint, _checkpoint
from tfspore.train.callback._checkpoint import _chg_ckpt_file_name_if_same_exist

from tests.train.callback_loop import fake_train, model_eval, tfspore_api

API = tfspore_api()
KEY16 = b"0123456789abcdef"
KEY32 = b"abcdefghijklmnopqrstuvwxyz012345"


def _train_net(lr=0.1):
    net = nn.Dense(4, 3)
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return net, opt, nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)


_X = ms.Tensor(np.random.RandomState(0).randn(2, 4).astype(np.float32))
_Y = ms.Tensor(np.array([0, 2], np.int32))


def _run(tn):
    return lambda cb: tn(_X, _Y)


def _files(path):
    return sorted(f for f in os.listdir(path) if f.endswith(".ckpt"))


def _const(cb):
    return ms.Tensor(np.float32(1.0))


# -------------------------------------------------------------------------------- CheckpointConfig
def test_config_defaults():
    c = CheckpointConfig()
    assert (c.save_checkpoint_steps, c.save_checkpoint_seconds, c.keep_checkpoint_max,
            c.keep_checkpoint_per_n_minutes, c.integrated_save, c.async_save, c.saved_network, c.enc_key,
            c.enc_mode, c.crc_check, c.format, c.append_dict) == (1, None, 5, None, True, False, None, None,
                                                                  "AES-GCM", False, "ckpt", None)
    assert c.exception_save is False and c.map_param_inc is False


def test_config_policy_precedence():
    assert CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3).get_checkpoint_policy() == {
        "save_checkpoint_steps": 2, "save_checkpoint_seconds": None, "keep_checkpoint_max": 3,
        "keep_checkpoint_per_n_minutes": None, "saved_network": None}
    assert CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=10).get_checkpoint_policy() == {
        "save_checkpoint_steps": 0, "save_checkpoint_seconds": 10, "keep_checkpoint_max": 5,
        "keep_checkpoint_per_n_minutes": None, "saved_network": None}
    policy = CheckpointConfig(keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=0,
                              save_checkpoint_steps=5).get_checkpoint_policy()
    assert policy["keep_checkpoint_max"] == 1 and policy["keep_checkpoint_per_n_minutes"] == 0
    assert CheckpointConfig(save_checkpoint_seconds=10).save_checkpoint_seconds is None  # steps=1 wins
    assert CheckpointConfig(keep_checkpoint_max=None, keep_checkpoint_per_n_minutes=2).keep_checkpoint_max is None


def test_config_append_info():
    net = nn.Dense(2, 2)
    c = CheckpointConfig(append_info=[{"lr": 0.1, "tag": "hello", "w": net.weight}, "step_num", "epoch_num"])
    assert list(c.append_dict) == ["epoch_num", "step_num", "lr", "tag", "w"]
    assert c.append_dict["epoch_num"] == 0 and c.append_dict["step_num"] == 0
    assert CheckpointConfig(append_info=[]).append_dict is None


@pytest.mark.parametrize("kwargs, exc, msg", [
    ({"save_checkpoint_steps": -1}, ValueError,
     "For 'CheckpointConfig', the 'save_checkpoint_steps' must be a non-negative int, but got -1."),
    ({"keep_checkpoint_max": 1.5}, TypeError,
     "the 'keep_checkpoint_max' must be a non-negative int, but got 1.5 of type float."),
    ({"save_checkpoint_seconds": True}, TypeError,
     "the 'save_checkpoint_seconds' must be a non-negative int, but got True of type bool."),
    ({"integrated_save": 1}, TypeError,
     "For 'CheckpointConfig', the 'integrated_save' must be a bool, but got 1 of type int."),
    ({"exception_save": "no"}, TypeError,
     "For 'CheckpointConfig', the 'exception_save' must be a bool, but got 'no' of type str."),
    ({"async_save": 1}, TypeError,
     "For 'save_checkpoint', the parameter 'async_save' must be bool or str, but got <class 'int'>."),
    ({"async_save": "proc"}, ValueError,
     "For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread',but got proc."),
    ({"saved_network": "net"}, TypeError,
     "For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, but got <class 'str'>."),
    ({"enc_key": "str"}, ValueError,
     "For 'CheckpointConfig', the 'enc_key' must be None or bytes, but got 'str' of type str."),
    ({"enc_mode": 1}, ValueError, "For 'CheckpointConfig', the 'enc_mode' must be str, but got 1 of type int."),
    ({"crc_check": 1}, ValueError, "For 'CheckpointConfig', the 'crc_check' must be bool, but got 1 of type int."),
    ({"format": "safetensors", "crc_check": True}, ValueError,
     "For 'save_checkpoint', when format is 'safetensors', other param must be default."),
    ({"save_checkpoint_steps": 0, "save_checkpoint_seconds": None, "keep_checkpoint_max": 0,
      "keep_checkpoint_per_n_minutes": None}, ValueError,
     "For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', 'save_checkpoint_seconds', "
     "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't be all None or 0."),
    ({"append_info": "epoch_num"}, TypeError,
     "For 'CheckpointConfig', the type of 'append_info' must be list,but got <class 'str'>."),
    ({"append_info": ["foo"]}, ValueError,
     "For 'CheckpointConfig', the value of element in the argument 'append_info' must be in "
     "['epoch_num', 'step_num'], but got foo."),
    ({"append_info": [1]}, TypeError,
     "For 'CheckpointConfig', the type of 'append_info' element must be str or dict,but got <class 'int'>."),
    ({"append_info": [{}, {}]}, TypeError,
     "For 'CheckpointConfig', the element of 'append_info' must has only one dict, but got 2"),
    ({"append_info": [{"a": [1]}]}, TypeError,
     "For 'CheckpointConfig', the key type of the dict 'append_info' must be string, the value type must be int "
     "or float or bool, but got key type <class 'str'>, value type <class 'list'>"),
])
def test_config_errors(kwargs, exc, msg):
    with pytest.raises(exc, match=re.escape(msg)):
        CheckpointConfig(**kwargs)


def test_config_accepts_lenient_values():
    CheckpointConfig(format="h5")  # checked at save time
    CheckpointConfig(async_save="thread", enc_key=KEY16, enc_mode="AES-CBC", incremental=True,
                     enable_redundance=True)


# ------------------------------------------------------------------------- ModelCheckpoint: init
def test_model_checkpoint_argument_errors(tmp_path):
    with pytest.raises(ValueError, match=re.escape("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file "
                                                   "name is invalid, it must be callable or string that does not "
                                                   "contain '/', but got a/b.")):
        ModelCheckpoint("a/b", str(tmp_path))
    with pytest.raises(ValueError, match="but got 3"):
        ModelCheckpoint(3, str(tmp_path))
    with pytest.raises(TypeError, match="For 'ModelCheckpoint', the 'directory' must be a str, but got 5"):
        ModelCheckpoint("p", 5)
    with pytest.raises(TypeError, match=re.escape("For 'ModelCheckpoint', the type of argument 'config' should be "
                                                  "'CheckpointConfig', but got <class 'dict'>.")):
        ModelCheckpoint("p", str(tmp_path), {})


def test_directory_is_created_absolute_and_default_is_import_cwd(tmp_path, monkeypatch):
    target = tmp_path / "a" / "b"
    ck = ModelCheckpoint("p", str(target))
    assert ck._directory == os.path.realpath(target) and target.is_dir()
    assert (target.stat().st_mode & 0o777) == 0o700
    monkeypatch.chdir(tmp_path)
    assert ModelCheckpoint("p")._directory == _checkpoint._cur_dir


def test_prefix_deduplication(tmp_path):
    d = str(tmp_path)
    assert ModelCheckpoint("net", d)._prefix == "net"
    (tmp_path / "net-1_3.ckpt").write_bytes(b"")
    (tmp_path / "network-1_3.ckpt").write_bytes(b"")  # another prefix (a letter follows)
    (tmp_path / "net-9_9_breakpoint.ckpt").write_bytes(b"")
    assert ModelCheckpoint("net", d)._prefix == "net_1"
    (tmp_path / "net_1-1_3.ckpt").write_bytes(b"")
    assert ModelCheckpoint("net", d)._prefix == "net_2"
    assert _chg_ckpt_file_name_if_same_exist(d, "net", True) == "net_1"
    assert ModelCheckpoint(lambda cb: "x", d)._prefix_func is not None


# ---------------------------------------------------------------------- ModelCheckpoint: saving
def test_steps_and_keep_max_sequence(tmp_path):
    """3 epochs x 3 steps, save every 2 steps, keep 3 (MindSpore's recorded sequence)."""
    ck = ModelCheckpoint("net", str(tmp_path), CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3))
    net, _, _ = _train_net()
    seen = {}

    def step(cb):
        return ms.Tensor(np.float32(1.0))

    class Probe(ms.train.Callback):
        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            if cb.cur_step_num % 2 == 0:
                seen[cb.cur_step_num] = _files(tmp_path)
    fake_train(API, [ck, Probe()], 3, 3, step, train_network=net)
    assert seen == {2: ["net-1_2.ckpt"], 4: ["net-1_2.ckpt", "net-2_1.ckpt"],
                    6: ["net-1_2.ckpt", "net-2_1.ckpt", "net-2_3.ckpt"],
                    8: ["net-2_1.ckpt", "net-2_3.ckpt", "net-3_2.ckpt"]}
    assert _files(tmp_path) == ["net-2_3.ckpt", "net-3_2.ckpt", "net-3_3.ckpt"]
    assert ck.latest_ckpt_file_name == os.path.join(os.path.realpath(tmp_path), "net-3_3.ckpt")


@pytest.mark.parametrize("prefix, config, expected", [
    ("CKP", None, ["CKP-2_2.ckpt", "CKP-2_3.ckpt", "CKP-3_1.ckpt", "CKP-3_2.ckpt", "CKP-3_3.ckpt"]),
    ("s4", CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=10),
     ["s4-2_1.ckpt", "s4-3_2.ckpt", "s4-3_3.ckpt"]),
    ("sec", CheckpointConfig(save_checkpoint_steps=None, save_checkpoint_seconds=1000), ["sec-3_3.ckpt"]),
])
def test_policies(tmp_path, prefix, config, expected):
    net = nn.Dense(4, 3)
    fake_train(API, [ModelCheckpoint(prefix, str(tmp_path), config)], 3, 3, _const, train_network=net)
    assert _files(tmp_path) == expected


def test_seconds_policy_saves_when_time_passes(tmp_path, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(_checkpoint, "time", type("T", (), {"time": staticmethod(lambda: clock[0])}))
    ck = ModelCheckpoint("t", str(tmp_path), CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=5))

    def step(cb):
        clock[0] += 3
        return 1.0
    fake_train(API, [ck], 1, 5, step, train_network=nn.Dense(2, 2))
    assert _files(tmp_path) == ["t-1_2.ckpt", "t-1_4.ckpt", "t-1_5.ckpt"]


def test_initial_epoch_names_and_append_info(tmp_path):
    net, opt, tn = _train_net()
    cfg = CheckpointConfig(save_checkpoint_steps=3, append_info=["epoch_num", "step_num", {"lr": 0.1, "tag": "hello"}])
    fake_train(API, [ModelCheckpoint("ie", str(tmp_path), cfg)], 4, 3, _run(tn), initial_epoch=2,
               train_network=tn, optimizer=opt)
    assert _files(tmp_path) == ["ie-3_3.ckpt", "ie-4_3.ckpt"]
    params = ms.load_checkpoint(str(tmp_path / "ie-4_3.ckpt"))
    assert list(params) == ["weight", "bias", "global_step", "learning_rate", "momentum", "moments.weight",
                            "moments.bias", "epoch_num", "step_num", "lr", "tag"]
    assert int(params["epoch_num"].asnumpy()) == 4 and int(params["step_num"].asnumpy()) == 6
    assert params["epoch_num"].dtype == ms.int64 and params["lr"].dtype == ms.float32
    assert params["global_step"].asnumpy().tolist() == [6] and params["tag"] == "hello"
    np.testing.assert_array_equal(params["weight"].asnumpy(), net.weight.asnumpy())


def test_saved_network_and_callable_prefix_and_directory(tmp_path):
    net, opt, tn = _train_net()
    fake_train(API, [ModelCheckpoint("only", str(tmp_path), CheckpointConfig(saved_network=net))], 1, 1,
               _run(tn), train_network=tn)
    assert list(ms.load_checkpoint(str(tmp_path / "only-1_1.ckpt"))) == ["weight", "bias"]

    def prefix(cb):
        return f"cp_e{cb.cur_epoch_num}_s{cb.cur_step_num}"
    fake_train(API, [ModelCheckpoint(prefix, lambda cb: str(tmp_path / f"ep{cb.cur_epoch_num}"),
                                     CheckpointConfig(save_checkpoint_steps=3))], 2, 3, _const, train_network=net)
    assert _files(tmp_path / "ep1") == ["cp_e1_s3.ckpt"] and _files(tmp_path / "ep2") == ["cp_e2_s6.ckpt"]
    with pytest.raises(ValueError, match="it must return a string that does not contain '/', but got a/b"):
        fake_train(API, [ModelCheckpoint(lambda cb: "a/b", str(tmp_path))], 1, 1, _const, train_network=net)


def test_retention_counts_only_this_prefix(tmp_path):
    for name in ("net-0_1.ckpt", "net-0_2.ckpt", "net-graph.meta", "netx-1_1.ckpt", "other-1_1.ckpt",
                 "net-1_1_breakpoint.ckpt"):
        (tmp_path / name).write_bytes(b"")
    os.utime(tmp_path / "net-0_1.ckpt", (1, 1))
    os.utime(tmp_path / "net-0_2.ckpt", (2, 2))
    ck = ModelCheckpoint("p", str(tmp_path), CheckpointConfig(keep_checkpoint_max=2))
    ck._prefix = "net"  # as if the directory had been empty at construction: earlier files of the prefix count
    fake_train(API, [ck], 1, 2, _const, train_network=nn.Dense(2, 2))
    assert _files(tmp_path) == ["net-1_1.ckpt", "net-1_1_breakpoint.ckpt", "net-1_2.ckpt", "netx-1_1.ckpt",
                                "other-1_1.ckpt"]
    assert (tmp_path / "net-graph.meta").exists()


def test_keep_per_n_minutes(tmp_path):
    ck = ModelCheckpoint("m", str(tmp_path), CheckpointConfig(keep_checkpoint_max=None,
                                                               keep_checkpoint_per_n_minutes=1))
    fake_train(API, [ck], 1, 4, _const, train_network=nn.Dense(2, 2))
    assert _files(tmp_path) == ["m-1_1.ckpt", "m-1_4.ckpt"]  # the first of the window, and the newest


def test_no_duplicate_final_save_and_eval_is_noop(tmp_path):
    ck = ModelCheckpoint("n", str(tmp_path), CheckpointConfig(save_checkpoint_steps=3))
    fake_train(API, [ck], 1, 3, _const, train_network=nn.Dense(2, 2))
    assert _files(tmp_path) == ["n-1_3.ckpt"]
    model_eval(API, [ck], 2, _const, {})  # MindSpore raises a KeyError here
    assert _files(tmp_path) == ["n-1_3.ckpt"]


def test_existing_file_is_replaced_and_read_only(tmp_path):
    net = nn.Dense(2, 2)
    (tmp_path / "r-1_1.ckpt").write_bytes(b"garbage")
    ck = ModelCheckpoint("r", str(tmp_path))
    ck._prefix = "r"
    fake_train(API, [ck], 1, 1, _const, train_network=net)
    assert list(ms.load_checkpoint(str(tmp_path / "r-1_1.ckpt"))) == ["weight", "bias"]
    assert (os.stat(tmp_path / "r-1_1.ckpt").st_mode & 0o777) == 0o400
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


@pytest.mark.parametrize("key, mode", [(KEY16, "AES-GCM"), (KEY32, "AES-CBC")])
def test_encrypted_checkpoints_round_trip(tmp_path, key, mode):
    net, opt, tn = _train_net()
    cfg = CheckpointConfig(enc_key=key, enc_mode=mode, append_info=["epoch_num"])
    fake_train(API, [ModelCheckpoint("enc", str(tmp_path), cfg)], 1, 2, _run(tn), train_network=tn)
    path = str(tmp_path / "enc-1_2.ckpt")
    with pytest.raises(ValueError):
        ms.load_checkpoint(path)
    params = ms.load_checkpoint(path, dec_key=key, dec_mode=mode)
    np.testing.assert_array_equal(params["weight"].asnumpy(), net.weight.asnumpy())
    assert int(params["epoch_num"].asnumpy()) == 1


def test_bad_enc_mode_fails_at_save_time(tmp_path):
    ck = ModelCheckpoint("bad", str(tmp_path), CheckpointConfig(enc_key=KEY16, enc_mode="DES"))
    with pytest.raises(ValueError):
        fake_train(API, [ck], 1, 1, _const, train_network=nn.Dense(2, 2))


def test_async_save_and_crc(tmp_path):
    net, opt, tn = _train_net()
    cfg = CheckpointConfig(async_save=True, crc_check=True, keep_checkpoint_max=2)
    fake_train(API, [ModelCheckpoint("a", str(tmp_path), cfg)], 2, 2, _run(tn), train_network=tn)
    assert _files(tmp_path) == ["a-2_1.ckpt", "a-2_2.ckpt"]
    params = ms.load_checkpoint(str(tmp_path / "a-2_2.ckpt"), crc_check=True)
    np.testing.assert_array_equal(params["weight"].asnumpy(), net.weight.asnumpy())


def test_remove_redundancy_needs_parallel(tmp_path):
    ck = ModelCheckpoint("rr", str(tmp_path), CheckpointConfig(remove_redundancy=True))
    with pytest.raises(TypeError, match="can only be used in parallel scenarios, but got 'stand_alone'"):
        fake_train(API, [ck], 1, 1, _const, train_network=nn.Dense(2, 2))


def test_breakpoint_save(tmp_path):
    net, opt, tn = _train_net()
    cfg = CheckpointConfig(save_checkpoint_steps=3, exception_save=True, append_info=["step_num"])
    ck = ModelCheckpoint("g", str(tmp_path), cfg)

    class Boom(ms.train.Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 5:
                raise RuntimeError("boom")
    cb_holder = {}

    def step(cb):
        cb_holder["cb"] = cb
        return tn(_X, _Y)
    with pytest.raises(RuntimeError, match="boom"):
        fake_train(API, [ck, Boom()], 3, 3, step, train_network=tn)
    path = ck._save_breakpoint(cb_holder["cb"])
    assert os.path.basename(path) == "g-2_2_breakpoint.ckpt"
    assert _files(tmp_path) == ["g-1_3.ckpt", "g-2_2_breakpoint.ckpt"]
    assert int(ms.load_checkpoint(path)["step_num"].asnumpy()) == 5
    assert os.path.basename(ck._save_breakpoint(cb_holder["cb"])) == "g_1-2_2_breakpoint.ckpt"
    assert os.path.basename(ck._save_breakpoint({"train_network": tn})) == "g_2-0_0_breakpoint.ckpt"


def test_keras_weights_are_saved_through_saveable(tmp_path):
    keras = pytest.importorskip("keras")
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d")])
    fake_train(API, [ModelCheckpoint("k", str(tmp_path))], 1, 1, _const, train_network=model)
    params = ms.load_checkpoint(str(tmp_path / "k-1_1.ckpt"))
    kernel = model.layers[0].kernel
    assert sorted(params) == sorted(w.path for w in model.weights) and kernel.path.endswith("d/kernel")
    np.testing.assert_array_equal(params[kernel.path].asnumpy(), kernel.numpy())


# ------------------------------------------------------------------- end to end with Model.train
def _model_and_data():
    import tensorflow as tf
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    x = np.random.RandomState(0).randn(10, 4).astype(np.float32)
    y = (np.arange(10) % 3).astype(np.int32)
    return ms.train.Model(net, loss, opt), tf.data.Dataset.from_tensor_slices((x, y)).batch(4), net


def test_model_train_writes_checkpoints_and_resumes(tmp_path):
    model, data, net = _model_and_data()
    ck = ModelCheckpoint("net", str(tmp_path), CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3,
                                                                 append_info=["epoch_num", "step_num"]))
    model.train(3, data, callbacks=[ck])
    assert _files(tmp_path) == ["net-2_3.ckpt", "net-3_2.ckpt", "net-3_3.ckpt"]
    params = ms.load_checkpoint(ck.latest_ckpt_file_name)
    np.testing.assert_array_equal(params["weight"].asnumpy(), net.weight.asnumpy())
    assert params["global_step"].asnumpy().tolist() == [9] and int(params["step_num"].asnumpy()) == 9
    model2, data2, net2 = _model_and_data()
    ms.load_checkpoint(ck.latest_ckpt_file_name, net=model2.train_network)
    np.testing.assert_array_equal(net2.weight.asnumpy(), net.weight.asnumpy())


def test_model_train_exception_save(tmp_path):
    model, data, _ = _model_and_data()

    class Boom(ms.train.Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 5:
                raise RuntimeError("boom")
    ck = ModelCheckpoint("g", str(tmp_path), CheckpointConfig(save_checkpoint_steps=3, exception_save=True))
    with pytest.raises(RuntimeError, match="boom"):
        model.train(3, data, callbacks=[ck, Boom()])
    assert _files(tmp_path) == ["g-1_3.ckpt", "g-2_2_breakpoint.ckpt"]


def test_directory_of_the_wrong_type_names_the_api_and_argument():
    from tfspore.train.callback import ModelCheckpoint as _ModelCheckpoint
    with pytest.raises(TypeError, match=r"^For 'ModelCheckpoint', the 'directory' must be a str, but got 5 of type int"):
        _ModelCheckpoint(directory=5)
