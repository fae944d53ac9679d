"""Bad-input census: call the API wrongly and classify what each call does.

Every case is a short snippet that passes one bad value (or a bad file) to one API. The snippets
run in worker processes, one after the other, each under a timeout; a worker that dies or hangs
is replaced and the case is counted as a crash or a hang. Each outcome is classified:

* ``clear``: MindSpore's exception type, and the message names the API, the argument (or, for
  shape errors, the shapes) and the value;
* ``raw-tf``: a TensorFlow exception or a message with TensorFlow's internals (``{{node ...}}``,
  ``Graph execution error``, ``Incompatible shapes``);
* ``unnamed``: the right kind of error, but the message misses the API, the argument or the value;
* ``wrong-type``: a clear message with another exception type than MindSpore's;
* ``silent``: no exception (a wrong result computed or the bad value accepted);
* ``crash`` / ``hang``: the worker died on a signal or ran past the timeout.

Example:
    .venv/bin/python -m bench.bad_input_census            # all cases, counts and the non-clear ones
    .venv/bin/python -m bench.bad_input_census -k embed   # cases whose id contains "embed"
    .venv/bin/python -m bench.bad_input_census -v         # every case with its message
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import select
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple

PRELUDE = r'''
import os, signal, stat, tempfile
import numpy as np
import tfspore as ms
from tfspore import nn, ops, Tensor, Model, context
from tfspore import dataset as ds
from tfspore.train import LossMonitor, TimeMonitor, ModelCheckpoint, CheckpointConfig
from tfspore import save_checkpoint, load_checkpoint, load_param_into_net

TMP = tempfile.mkdtemp(prefix="census_")

def f32(*s):
    return Tensor(np.ones(s, np.float32))

def i32(a):
    return Tensor(np.array(a, np.int32))

class _Wrap(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn
    def construct(self, *args):
        return self.fn(*args)

def P(fn, *args):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return _Wrap(fn)(*args)

def G(fn, *args):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        return _Wrap(fn)(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)

def add(a, b):
    return a + b

def sub(a, b):
    return a - b

def mul(a, b):
    return a * b

def div(a, b):
    return a / b

def data(n=8):
    x = np.ones((n, 4), np.float32)
    y = np.zeros((n,), np.int32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)

def model():
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"acc"})

def params():
    return nn.Dense(4, 3).trainable_params()

def ckpt(crc=False):
    path = os.path.join(TMP, f"net{int(crc)}.ckpt")
    save_checkpoint(nn.Dense(4, 3), path, crc_check=crc)
    return path

def fifo():
    path = tempfile.mktemp(prefix="fifo", dir=TMP)
    os.mkfifo(path)
    return path

def tfrecord(n=3):
    import tensorflow as tf
    path = os.path.join(TMP, "data.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for i in range(n):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[float(i)] * 4))}))
            w.write(ex.SerializeToString())
    return path

def consume(d):
    return [r for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]

def gen_switch():
    for i in range(4):
        yield (np.ones(2, np.float32 if i < 2 else np.float64),)

# warm up TensorFlow's kernels in both modes, so that no case's timeout counts their first-use set-up
P(nn.Dense(4, 3), f32(1, 4))
G(nn.Dense(4, 3), f32(1, 4))
'''


class Case(NamedTuple):
    """One bad call: ``code`` must raise ``expect`` with every string of ``needles`` in the message.

    Needles match case-insensitively; ``"5~int"`` accepts either the value or its type's name.
    """
    cid: str
    expect: str
    needles: tuple
    code: str


def _c(cid: str, expect: str, needles: str, code: str) -> Case:
    return Case(cid, expect, tuple(n for n in needles.split("|") if n), code)


CASES = [
    # ---------------------------------------------------------------- call-time shapes and dtypes
    _c("conv2d_small_input_pynative", "ValueError", "Conv2d|(1, 3, 3, 3)",
       "P(nn.Conv2d(3, 4, 5, pad_mode='valid'), f32(1, 3, 3, 3))"),
    _c("conv2d_small_input_graph", "ValueError", "Conv2d|(1, 3, 3, 3)",
       "G(nn.Conv2d(3, 4, 5, pad_mode='valid'), f32(1, 3, 3, 3))"),
    _c("conv2d_channel_mismatch_pynative", "RuntimeError", "Conv2d|4|3",
       "P(nn.Conv2d(3, 4, 3), f32(1, 4, 8, 8))"),
    _c("conv2d_channel_mismatch_graph", "RuntimeError", "Conv2d|4|3",
       "G(nn.Conv2d(3, 4, 3), f32(1, 4, 8, 8))"),
    _c("dense_features_pynative", "ValueError", "Dense|5|4", "P(nn.Dense(4, 3), f32(2, 5))"),
    _c("dense_features_graph", "ValueError", "Dense|5|4", "G(nn.Dense(4, 3), f32(2, 5))"),
    _c("matmul_prim_pynative", "ValueError", "MatMul|5|4", "P(ops.MatMul(), f32(2, 5), f32(4, 3))"),
    _c("matmul_prim_graph", "ValueError", "MatMul|5|4", "G(ops.MatMul(), f32(2, 5), f32(4, 3))"),
    _c("ops_matmul_pynative", "ValueError", "atMul|5|4", "P(ops.matmul, f32(2, 5), f32(4, 3))"),
    _c("batchmatmul_pynative", "ValueError", "BatchMatMul|5|4",
       "P(ops.BatchMatMul(), f32(2, 2, 5), f32(2, 4, 3))"),
    _c("batchnorm_channels_pynative", "ValueError", "BatchNorm|4|3", "P(nn.BatchNorm2d(3), f32(2, 4, 2, 2))"),
    _c("batchnorm_channels_graph", "ValueError", "BatchNorm|4|3", "G(nn.BatchNorm2d(3), f32(2, 4, 2, 2))"),
    _c("embedding_index_pynative", "RuntimeError", "Embedding|12|10",
       "P(nn.Embedding(10, 4), i32([[1, 12]]))"),
    _c("embedding_index_graph", "RuntimeError", "Embedding|12|10",
       "G(nn.Embedding(10, 4), i32([[1, 12]]))"),
    _c("gather_index_pynative", "RuntimeError", "Gather|7|5",
       "P(ops.Gather(), f32(5, 2), i32([7]), 0)"),
    _c("gather_index_graph", "RuntimeError", "Gather|7|5",
       "G(lambda x, i: ops.gather(x, i, 0), f32(5, 2), i32([7]))"),
    _c("tensor_add_pynative", "ValueError", "Add|(2, 3)|(4, 3)", "P(add, f32(2, 3), f32(4, 3))"),
    _c("tensor_add_graph", "ValueError", "Add|(2, 3)|(4, 3)", "G(add, f32(2, 3), f32(4, 3))"),
    _c("tensor_sub_pynative", "ValueError", "Sub|(2, 3)|(4, 3)", "P(sub, f32(2, 3), f32(4, 3))"),
    _c("tensor_mul_graph", "ValueError", "Mul|(2, 3)|(4, 3)", "G(mul, f32(2, 3), f32(4, 3))"),
    _c("tensor_div_pynative", "ValueError", "Div|(2, 3)|(4, 3)", "P(div, f32(2, 3), f32(4, 3))"),
    _c("ops_add_pynative", "ValueError", "dd|(2, 3)|(4, 3)", "P(ops.Add(), f32(2, 3), f32(4, 3))"),
    _c("ops_maximum_pynative", "ValueError", "aximum|(2, 3)|(4, 3)",
       "P(ops.Maximum(), f32(2, 3), f32(4, 3))"),
    _c("concat_shapes_pynative", "ValueError", "Concat|3|4",
       "P(lambda a, b: ops.concat((a, b), 0), f32(2, 3), f32(2, 4))"),
    _c("reshape_size_pynative", "ValueError", "Reshape|(2, 3)|(4, 2)",
       "P(lambda a: ops.reshape(a, (4, 2)), f32(2, 3))"),
    _c("mse_shapes_pynative", "ValueError", "(2, 3)|(4, 3)", "P(nn.MSELoss(), f32(2, 3), f32(4, 3))"),
    _c("transpose_perm_pynative", "ValueError", "Transpose|perm|(1, 0, 2)",
       "P(lambda a: ops.transpose(a, (1, 0, 2)), f32(2, 3))"),
    _c("reduce_axis_pynative", "ValueError", "ReduceMean|axis|5", "P(lambda a: ops.ReduceMean()(a, 5), f32(2, 3))"),
    _c("ce_dense_shapes_pynative", "ValueError", "(2, 3)|(2, 4)",
       "P(nn.SoftmaxCrossEntropyWithLogits(), f32(2, 3), f32(2, 4))"),
    _c("layernorm_shape_pynative", "ValueError", "LayerNorm|(4,)|(2, 3)", "P(nn.LayerNorm((4,)), f32(2, 3))"),
    _c("embedding_float_ids", "TypeError", "Embedding|ids|Float32~float32",
       "P(nn.Embedding(10, 4), f32(2, 2))"),
    _c("matmul_int_float_pynative", "TypeError", "MatMul|Int32|Float32",
       "P(ops.MatMul(), Tensor(np.ones((2, 4), np.int32)), f32(4, 3))"),
    _c("dense_int32_input", "TypeError", "MatMul|Int32|Float32",
       "P(nn.Dense(4, 3), Tensor(np.ones((2, 4), np.int32)))"),
    _c("dense_int32_input_graph", "TypeError", "MatMul|Int32|Float32",
       "G(nn.Dense(4, 3), Tensor(np.ones((2, 4), np.int32)))"),
    _c("sparse_ce_float_labels", "TypeError", "SoftmaxCrossEntropyWithLogits|labels|Float32",
       "P(nn.SoftmaxCrossEntropyWithLogits(sparse=True), f32(2, 3), Tensor(np.array([1.9, 0.2], np.float32)))"),
    _c("sparse_ce_float_labels_graph", "TypeError", "SparseSoftmaxCrossEntropyWithLogits|labels|Float32",
       "G(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean'), f32(2, 3), "
       "Tensor(np.array([1.9, 0.2], np.float32)))"),
    _c("sparse_ce_prim_float_labels", "TypeError", "SparseSoftmaxCrossEntropyWithLogits|labels|Float32",
       "P(ops.SparseSoftmaxCrossEntropyWithLogits(), f32(2, 3), Tensor(np.array([1.9, 0.2], np.float32)))"),
    _c("avgpool_small_input", "RuntimeError", "AvgPool2d|(1, 1, 2, 2)", "P(nn.AvgPool2d(3, 1), f32(1, 1, 2, 2))"),
    _c("maxpool_small_input", "ValueError", "MaxPool2d|(1, 1, 2, 2)", "P(nn.MaxPool2d(3, 1), f32(1, 1, 2, 2))"),
    _c("maxpool1d_small_input_graph", "ValueError", "MaxPool1d|(1, 1, 2)", "G(nn.MaxPool1d(3, 1), f32(1, 1, 2))"),
    _c("generator_dtype_switch", "RuntimeError", "float64|float32",
       "consume(ds.GeneratorDataset(gen_switch, ['x'], shuffle=False))"),
    # ---------------------------------------------------------------- Model
    _c("model_train_epoch_0", "ValueError", "Model.train|epoch|0", "model().train(0, data())"),
    _c("model_train_epoch_neg", "ValueError", "Model.train|epoch|-1", "model().train(-1, data())"),
    _c("model_train_epoch_float", "TypeError", "Model.train|epoch|1.5~float", "model().train(1.5, data())"),
    _c("model_train_sink_size", "ValueError", "sink_size|-2",
       "model().train(1, data(), dataset_sink_mode=True, sink_size=-2)"),
    _c("model_train_callbacks", "TypeError", "callbacks|5~int", "model().train(1, data(), callbacks=5)"),
    _c("model_train_dataset_none", "TypeError", "Model.train|train_dataset|None", "model().train(1, None)"),
    _c("model_fit_epoch_0", "ValueError", "Model.fit|epoch|0", "model().fit(0, data())"),
    _c("model_fit_valid_frequency", "ValueError", "valid_frequency|0",
       "model().fit(1, data(), data(), valid_frequency=0)"),
    _c("model_eval_none", "TypeError", "Model.eval|valid_dataset|None", "model().eval(None)"),
    _c("model_eval_no_metrics", "ValueError", "Model.eval|metrics",
       "net = nn.Dense(4, 3); Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9)).eval(data())"),
    _c("model_loss_fn_type", "TypeError", "loss_fn|3", "Model(nn.Dense(4, 3), loss_fn=3)"),
    _c("model_amp_level", "ValueError", "Model|amp_level|O7",
       "net = nn.Dense(4, 3); Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9), "
       "amp_level='O7')"),
    _c("model_metrics_type", "TypeError", "Model|metrics|acc~str",
       "Model(nn.Dense(4, 3), nn.MSELoss(), metrics='acc')"),
    _c("model_network_type", "TypeError", "Model|network|5~int", "Model(5)"),
    # ---------------------------------------------------------------- callbacks
    _c("lossmonitor_neg", "ValueError", "LossMonitor|per_print_times|-1", "LossMonitor(-1)"),
    _c("lossmonitor_str", "TypeError", "LossMonitor|per_print_times|a~str", "LossMonitor('a')"),
    _c("timemonitor_data_time", "TypeError", "TimeMonitor|data_time|1~int", "TimeMonitor(data_time=1)"),
    _c("ckptconfig_steps_neg", "ValueError", "CheckpointConfig|save_checkpoint_steps|-1",
       "CheckpointConfig(save_checkpoint_steps=-1)"),
    _c("ckptconfig_keep_neg", "ValueError", "keep_checkpoint_max|-1", "CheckpointConfig(keep_checkpoint_max=-1)"),
    _c("ckptconfig_steps_str", "TypeError", "save_checkpoint_steps|a~str",
       "CheckpointConfig(save_checkpoint_steps='a')"),
    _c("ckptconfig_all_zero", "ValueError", "CheckpointConfig|save_checkpoint_steps|keep_checkpoint_max",
       "CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=0, keep_checkpoint_max=0, "
       "keep_checkpoint_per_n_minutes=0)"),
    _c("modelckpt_prefix_type", "ValueError", "ModelCheckpoint|prefix|3", "ModelCheckpoint(prefix=3)"),
    _c("modelckpt_prefix_slash", "ValueError", "ModelCheckpoint|prefix|a/b", "ModelCheckpoint(prefix='a/b')"),
    _c("modelckpt_config_type", "TypeError", "ModelCheckpoint|config|5~int", "ModelCheckpoint(config=5)"),
    _c("modelckpt_directory_type", "TypeError", "ModelCheckpoint|directory|5~int", "ModelCheckpoint(directory=5)"),
    # ---------------------------------------------------------------- checkpoints
    _c("save_ckpt_obj_type", "TypeError", "save_checkpoint|save_obj|5~int",
       "save_checkpoint(5, os.path.join(TMP, 'a.ckpt'))"),
    _c("save_ckpt_name_type", "TypeError", "save_checkpoint|ckpt_file_name|5~int",
       "save_checkpoint(nn.Dense(4, 3), 5)"),
    _c("load_ckpt_missing", "ValueError", "missing.ckpt", "load_checkpoint(os.path.join(TMP, 'missing.ckpt'))"),
    _c("load_ckpt_name_type", "TypeError", "load_checkpoint|ckpt_file_name|5~int", "load_checkpoint(5)"),
    _c("load_ckpt_dec_mode", "ValueError", "dec_mode|XYZ",
       "load_checkpoint(ckpt(), dec_key=b'0123456789abcdef', dec_mode='XYZ')"),
    _c("load_ckpt_fifo", "ValueError", "fifo", "load_checkpoint(fifo())"),
    _c("load_ckpt_dev_zero", "ValueError", "/dev/zero", "load_checkpoint('/dev/zero')"),
    _c("load_ckpt_crc_cut_at_record", "ValueError", "net1.ckpt",
       "p = ckpt(True); b = open(p, 'rb').read(); i = b.rfind(b'crc_num'); "
       "open(p, 'wb').write(b[:i - 2]); load_checkpoint(p, crc_check=True)"),
    _c("load_param_dict_type", "TypeError", "load_param_into_net|parameter_dict|5~int",
       "load_param_into_net(nn.Dense(4, 3), 5)"),
    _c("load_param_net_type", "TypeError", "load_param_into_net|net|5~int", "load_param_into_net(5, {})"),
    # ---------------------------------------------------------------- optimizers
    _c("momentum_neg", "ValueError", "Momentum|momentum|-1", "nn.Momentum(params(), 0.1, -1.0)"),
    _c("momentum_str", "TypeError", "Momentum|momentum|a~str", "nn.Momentum(params(), 0.1, 'a')"),
    _c("momentum_lr_str", "TypeError", "learning_rate|a~str", "nn.Momentum(params(), 'a', 0.9)"),
    _c("adam_beta1", "ValueError", "Adam|beta1|1.5", "nn.Adam(params(), beta1=1.5)"),
    _c("adam_eps", "ValueError", "Adam|eps|0", "nn.Adam(params(), eps=0.0)"),
    _c("adam_weight_decay", "ValueError", "weight_decay|-1", "nn.Adam(params(), weight_decay=-1.0)"),
    _c("adam_loss_scale", "ValueError", "loss_scale|0", "nn.Adam(params(), loss_scale=0.0)"),
    _c("sgd_empty_params", "ValueError", "SGD|params", "nn.SGD([], 0.1)"),
    _c("sgd_lr_neg", "ValueError", "SGD|learning_rate|-0.1", "nn.SGD(params(), -0.1)"),
    # ---------------------------------------------------------------- datasets
    _c("batch_0", "ValueError", "batch|batch_size|0", "data().batch(0)"),
    _c("batch_str", "TypeError", "batch|batch_size|a~str", "data().batch('a')"),
    _c("repeat_neg", "ValueError", "repeat|count|-2", "data().repeat(-2)"),
    _c("repeat_0", "ValueError", "repeat|count|0", "data().repeat(0)"),
    _c("shuffle_0", "ValueError", "shuffle|buffer_size|0", "data().shuffle(0)"),
    _c("shuffle_str", "TypeError", "shuffle|buffer_size|a~str", "data().shuffle('a')"),
    _c("take_neg", "ValueError", "take|count|-2", "data().take(-2)"),
    _c("skip_neg", "ValueError", "skip|count|-1", "data().skip(-1)"),
    _c("map_ops_type", "TypeError", "map|operations|5~int", "data().map(operations=5, input_columns=['x'])"),
    _c("map_column_missing", "RuntimeError", "map|nope",
       "consume(data().map(operations=[lambda x: x], input_columns=['nope']))"),
    _c("generator_workers_0", "ValueError", "GeneratorDataset|num_parallel_workers|0",
       "ds.GeneratorDataset(gen_switch, ['x'], num_parallel_workers=0)"),
    _c("generator_columns_type", "TypeError", "GeneratorDataset|column_names|5~int",
       "ds.GeneratorDataset(gen_switch, 5)"),
    _c("numpy_slices_split", "ValueError", "split|sizes", "data().split([0.5, 0.6])"),
    _c("tfrecord_missing", "ValueError", "missing.tfrecord",
       "ds.TFRecordDataset(os.path.join(TMP, 'missing.tfrecord'))"),
    _c("tfrecord_truncated", "RuntimeError", "data.tfrecord",
       "p = tfrecord(); b = open(p, 'rb').read(); open(p, 'wb').write(b[:-7]); consume(ds.TFRecordDataset(p))"),
    _c("tfrecord_corrupt", "RuntimeError", "data.tfrecord",
       "p = tfrecord(); b = bytearray(open(p, 'rb').read()); b[20] ^= 0xFF; open(p, 'wb').write(bytes(b)); "
       "consume(ds.TFRecordDataset(p))"),
    _c("tfrecord_fifo", "ValueError", "fifo", "consume(ds.TFRecordDataset(fifo()))"),
    _c("tfrecord_dev_zero", "ValueError", "/dev/zero", "consume(ds.TFRecordDataset('/dev/zero'))"),
    # ---------------------------------------------------------------- nn and ops arguments
    _c("dense_in_0", "ValueError", "Dense|in_channels|0", "nn.Dense(0, 3)"),
    _c("dense_out_str", "TypeError", "Dense|out_channels|a~str", "nn.Dense(3, 'a')"),
    _c("conv_kernel_0", "ValueError", "Conv2d|kernel_size|0", "nn.Conv2d(3, 4, 0)"),
    _c("conv_pad_mode", "ValueError", "Conv2d|pad_mode|bad", "nn.Conv2d(3, 4, 3, pad_mode='bad')"),
    _c("dropout_p", "ValueError", "Dropout|p|1.5", "nn.Dropout(p=1.5)"),
    _c("batchnorm_0", "ValueError", "BatchNorm2d|num_features|0", "nn.BatchNorm2d(0)"),
    _c("maxpool_kernel_0", "ValueError", "MaxPool2d|kernel_size|0", "nn.MaxPool2d(kernel_size=0)"),
    _c("ce_reduction", "ValueError", "reduction|bad", "nn.SoftmaxCrossEntropyWithLogits(reduction='bad')"),
    _c("reducesum_keep_dims", "TypeError", "ReduceSum|keep_dims|a~str", "ops.ReduceSum(keep_dims='a')"),
    _c("softmax_axis_float", "TypeError", "Softmax|axis|1.5~float", "ops.Softmax(axis=1.5)"),
    _c("model_predict_no_args", "TypeError", "Dense|construct|x", "model().predict()"),
    _c("model_eval_dataset_type", "TypeError", "Model.eval|valid_dataset|5~int", "model().eval(5)"),
    _c("model_train_sink_mode_type", "TypeError", "Model.train|dataset_sink_mode|1~int",
       "model().train(1, data(), dataset_sink_mode=1)"),
    _c("save_ckpt_append_dict", "TypeError", "save_checkpoint|append_dict|5~int",
       "save_checkpoint(nn.Dense(4, 3), os.path.join(TMP, 'b.ckpt'), append_dict=5)"),
    _c("generator_column_count", "RuntimeError", "GeneratorDataset|column",
       "consume(ds.GeneratorDataset(gen_switch, ['x', 'y'], shuffle=False))"),
    _c("batch_drop_remainder_type", "TypeError", "batch|drop_remainder|1~int", "data().batch(2, drop_remainder=1)"),
    _c("numpy_slices_bad_data", "TypeError", "NumpySlicesDataset|data|5~int", "ds.NumpySlicesDataset(5)"),
    _c("piecewise_lr_mismatch", "ValueError", "piecewise_constant_lr|milestone|learning_rates",
       "nn.piecewise_constant_lr([2, 4], [0.1])"),
    _c("exponential_decay_lr_neg", "ValueError", "learning_rate|-0.1",
       "nn.exponential_decay_lr(-0.1, 0.9, 10, 2, 1)"),
    _c("lstm_hidden_0", "ValueError", "LSTM|hidden_size|0", "nn.LSTM(4, 0)"),
    _c("dense_activation_bad", "KeyError", "activation~relux|relux", "nn.Dense(3, 4, activation='relux')"),
    _c("onehot_depth_neg", "ValueError", "OneHot|depth|-1", "P(lambda i: ops.one_hot(i, -1), i32([0, 1]))"),
    _c("cast_bad_dtype", "TypeError", "Cast|dst_type~dtype|float99~str", "ops.cast(f32(2), 'float99')"),
    _c("parameter_name_type", "ValueError", "Parameter|name|5~int", "ms.Parameter(f32(2), name=5)"),
    _c("set_context_mode", "ValueError", "mode|5", "ms.set_context(mode=5)"),
    _c("set_seed_neg", "ValueError", "seed|-1", "ms.set_seed(-1)"),
    _c("set_seed_str", "TypeError", "seed|a~str", "ms.set_seed('a')"),
    _c("tensor_bad_dtype", "TypeError", "dtype|float99", "Tensor(np.ones(2), dtype='float99')"),
]


def _classify(case: Case, res: dict) -> str:
    if res["status"] != "raised":
        return res["status"]
    etype, emod, msg = res["type"], res["module"], res["message"]
    if emod.startswith("tensorflow") or any(s in msg for s in ("{{node", "{{function_node", "Graph execution error",
                                                                "Incompatible shapes", "Dimensions must be equal")):
        return "raw-tf"
    low = msg.lower()
    if not all(any(alt.lower() in low for alt in n.split("~")) for n in case.needles):
        return "unnamed"
    if etype != case.expect:
        return "wrong-type"
    return "clear"


def _worker() -> None:
    """Run the cases whose ids come on stdin, one JSON line each on stdout."""
    import signal  # pylint: disable=import-outside-toplevel
    scope: dict = {}
    exec(compile(PRELUDE, "<prelude>", "exec"), scope)  # noqa: S102  # pylint: disable=exec-used
    by_id = {c.cid: c for c in CASES}
    timeout = int(os.environ.get("CENSUS_TIMEOUT", "60"))

    def _alarm(*_):
        raise TimeoutError("census timeout")
    signal.signal(signal.SIGALRM, _alarm)
    out = sys.__stdout__
    for line in sys.stdin:
        case = by_id[line.strip()]
        out.write(json.dumps({"start": case.cid}) + "\n")
        out.flush()
        signal.alarm(timeout)
        try:
            exec(case.code, dict(scope))  # noqa: S102  # pylint: disable=exec-used
            res = {"status": "silent"}
        except TimeoutError:
            res = {"status": "hang"}
        except BaseException as e:  # pylint: disable=broad-except
            msg = str(e)
            # tf.function's "in user code:" traceback wrapper: keep the error line it ends with
            if msg.startswith("in user code:"):
                msg = msg.strip().splitlines()[-1].strip()
            res = {"status": "raised", "type": type(e).__name__, "module": type(e).__module__, "message": msg}
        finally:
            signal.alarm(0)
        res["cid"] = case.cid
        out.write(json.dumps(res) + "\n")
        out.flush()


_STARTUP_S = 900


class _Lines:
    """Lines from a pipe with a deadline (reads the descriptor itself: no buffer hides a ready line)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""

    def next(self, deadline: float) -> str | None:
        """The next line ('' at end of file), or None when ``deadline`` passes first."""
        while b"\n" not in self.buf:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                rest, self.buf = self.buf, b""
                return rest.decode(errors="replace")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace") + "\n"


def run_cases(cases: list, timeout: int) -> dict:
    """Run ``cases`` in worker processes; return {case id: result dict}."""
    results: dict = {}
    pending = [c.cid for c in cases]
    env = dict(os.environ, CENSUS_TIMEOUT=str(timeout), TF_CPP_MIN_LOG_LEVEL="3", PYTHONUNBUFFERED="1")
    while pending:
        with tempfile.TemporaryFile("w+") as err:
            proc = subprocess.Popen([sys.executable, "-m", "bench.bad_input_census", "--worker"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                    cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))), env=env)
            proc.stdin.write("".join(c + "\n" for c in pending).encode())
            proc.stdin.close()
            lines = _Lines(proc.stdout.fileno())
            current = None
            deadline = time.monotonic() + _STARTUP_S  # importing TensorFlow and the warm-up, on a loaded machine
            while True:
                line = lines.next(deadline)
                if line is None:
                    proc.kill()
                    proc.wait()
                    if current is None:  # the start-up itself, not a case
                        raise RuntimeError(f"the census worker did not start within {_STARTUP_S} s")
                    results[current] = {"status": "hang"}
                    break
                if not line:
                    rc = proc.wait()
                    if current is not None:
                        results[current] = {"status": "crash", "message": f"worker exited with {rc}"}
                    elif rc != 0:
                        err.seek(0)
                        raise RuntimeError(f"census worker failed before the first case:\n{err.read()[-3000:]}")
                    break
                if not line.startswith("{"):
                    continue
                rec = json.loads(line)
                if "start" in rec:
                    current = rec["start"]
                    deadline = time.monotonic() + timeout + 30
                    continue
                results[rec["cid"]] = rec
                current = None
            proc.stdout.close()
        pending = [c for c in pending if c not in results]
    return results


def main() -> None:
    """Run the census and print the counts."""
    if "--worker" in sys.argv:
        _worker()
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-k", default="", help="only the cases whose id contains this string")
    parser.add_argument("-v", action="store_true", help="print every case, not only those that are not clear")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per case")
    parser.add_argument("--json", default="", help="write the results to this file")
    args = parser.parse_args()
    cases = [c for c in CASES if args.k in c.cid]
    results = run_cases(cases, args.timeout)
    counts = collections.Counter()
    for case in cases:
        res = results[case.cid]
        kind = _classify(case, res)
        res["class"] = kind
        counts[kind] += 1
        if args.v or kind != "clear":
            detail = f"{res.get('type', '')}: {res.get('message', '')}".strip(": ")
            print(f"{kind:10s} {case.cid:34s} (expect {case.expect}) {detail[:300]}")
    order = ("clear", "raw-tf", "unnamed", "wrong-type", "silent", "crash", "hang")
    print(f"\n{len(cases)} calls: " + ", ".join(f"{k} {counts[k]}" for k in order))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
