"""The workloads as a Keras 3 user writes them (NHWC), trained by ``model.fit`` or by a
hand-written ``tf.function`` loop.

``fit`` runs with Keras's defaults (``jit_compile="auto"``, which is XLA on CPU when every layer
supports it) and ``steps_per_execution`` 1 or N. The hand-written loop is the floor: the same
Keras layers for the forward pass, ``tf.GradientTape``, TensorFlow's fused
``ResourceApplyMomentum`` (MindSpore's Momentum update), one ``tf.function`` per step (or per N
steps in a ``tf.range`` loop), no XLA.
"""
from __future__ import annotations

import time

import numpy as np
import tensorflow as tf
import keras
from keras import layers

from bench._spec import INIT_STDDEV, LR, MOMENTUM, NUM_CLASSES, VOCAB, Workload, make_data, to_nhwc


def _init():
    return keras.initializers.RandomNormal(stddev=INIT_STDDEV)


def _dense(units, activation=None):
    return layers.Dense(units, activation=activation, kernel_initializer=_init(), bias_initializer="zeros")


def _conv(filters, k, stride=1, padding="same"):
    return layers.Conv2D(filters, k, strides=stride, padding=padding, use_bias=False, kernel_initializer=_init())


def _bn():
    return layers.BatchNormalization(momentum=0.9, epsilon=1e-5)


def mlp():
    inp = keras.Input((28, 28, 1))
    x = layers.Flatten()(inp)
    x = _dense(128, "relu")(x)
    x = _dense(128, "relu")(x)
    return keras.Model(inp, _dense(NUM_CLASSES)(x))


def lenet():
    inp = keras.Input((32, 32, 1))
    x = layers.MaxPooling2D(2)(layers.ReLU()(_conv(6, 5, padding="valid")(inp)))
    x = layers.MaxPooling2D(2)(layers.ReLU()(_conv(16, 5, padding="valid")(x)))
    x = layers.Flatten()(x)
    x = _dense(120, "relu")(x)
    x = _dense(84, "relu")(x)
    return keras.Model(inp, _dense(NUM_CLASSES)(x))


def _block(x, cout, stride):
    out = layers.ReLU()(_bn()(_conv(cout, 3, stride)(x)))
    out = _bn()(_conv(cout, 3)(out))
    if stride != 1 or x.shape[-1] != cout:
        x = _bn()(_conv(cout, 1, stride)(x))
    return layers.ReLU()(layers.Add()([out, x]))


def resnet():
    inp = keras.Input((32, 32, 3))
    x = layers.ReLU()(_bn()(_conv(16, 3)(inp)))
    x = _block(x, 16, 1)
    x = _block(x, 32, 2)
    x = _block(x, 64, 2)
    x = layers.GlobalAveragePooling2D()(x)
    return keras.Model(inp, _dense(NUM_CLASSES)(x))


def transformer():
    inp = keras.Input((32,), dtype="int32")
    x = layers.Embedding(VOCAB, 64, embeddings_initializer=_init())(inp)
    for _ in range(2):
        a = layers.MultiHeadAttention(4, 16)(x, x)
        x = layers.LayerNormalization(epsilon=1e-5)(layers.Add()([x, a]))
        f = layers.Dense(64)(layers.Dense(128, activation="relu")(x))
        x = layers.LayerNormalization(epsilon=1e-5)(layers.Add()([x, f]))
    x = layers.GlobalAveragePooling1D()(x)
    return keras.Model(inp, _dense(NUM_CLASSES)(x))


def convnet():
    inp = keras.Input((32, 32, 3))
    x = inp
    for cout in (32, 32, "M", 64, 64, "M"):
        x = layers.MaxPooling2D(2)(x) if cout == "M" else layers.ReLU()(_bn()(_conv(cout, 3)(x)))
    x = _dense(128, "relu")(layers.Flatten()(x))
    return keras.Model(inp, _dense(NUM_CLASSES)(x))


NETWORKS = {"mlp": mlp, "lenet": lenet, "resnet": resnet, "transformer": transformer, "convnet": convnet}


def _dataset(workload: Workload, steps: int) -> tf.data.Dataset:
    x, y = make_data(workload, steps)
    data = tf.data.Dataset.from_tensor_slices((to_nhwc(x), y))
    return data.batch(workload.batch, drop_remainder=True).prefetch(tf.data.AUTOTUNE)


class _EpochTimer(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.ends = []

    def on_epoch_end(self, epoch, logs=None):
        self.ends.append(time.perf_counter())


def run_fit(workload: Workload, steps_per_execution: int, epochs: int, steps: int) -> dict:
    """Keras ``model.fit`` with ``steps_per_execution``; return the epoch end times."""
    keras.utils.set_random_seed(1)
    data = _dataset(workload, steps)
    model = NETWORKS[workload.network or workload.name]()
    model.compile(optimizer=keras.optimizers.SGD(LR, momentum=MOMENTUM),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  steps_per_execution=steps_per_execution)
    timer = _EpochTimer()
    start = time.perf_counter()
    model.fit(data, epochs=epochs, callbacks=[timer], verbose=0)
    return {"epoch_ends": [t - start for t in timer.ends],
            "weights_checksum": float(sum(np.abs(w).sum() for w in model.get_weights())),
            "jit_compile": bool(model.jit_compile)}


def run_loop(workload: Workload, steps_per_call: int, epochs: int, steps: int) -> dict:
    """The hand-written ``tf.function`` training loop; return the epoch end times."""
    keras.utils.set_random_seed(1)
    data = _dataset(workload, steps)
    model = NETWORKS[workload.network or workload.name]()
    start = time.perf_counter()
    variables = [v.value for v in model.trainable_variables]
    accums = [tf.Variable(tf.zeros_like(v)) for v in variables]
    lr = tf.constant(LR)
    momentum = tf.constant(MOMENTUM)

    def step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        grads = tape.gradient(loss, variables)
        for v, a, g in zip(variables, accums, grads):
            tf.raw_ops.ResourceApplyMomentum(var=v.handle, accum=a.handle, lr=lr, grad=g, momentum=momentum)
        return loss

    ends = []
    if steps_per_call == 1:
        one_step = tf.function(step)
        for _ in range(epochs):
            for x, y in data:
                loss = one_step(x, y)
            loss.numpy()
            ends.append(time.perf_counter())
    else:
        @tf.function
        def n_steps(iterator):
            loss = tf.constant(0.0)
            for _ in tf.range(steps_per_call):
                x, y = next(iterator)
                loss = step(x, y)
            return loss

        iterator = iter(data.repeat())
        for _ in range(epochs):
            for _ in range(steps // steps_per_call):
                loss = n_steps(iterator)
            loss.numpy()
            ends.append(time.perf_counter())
    return {"epoch_ends": [t - start for t in ends],
            "weights_checksum": float(sum(np.abs(v.numpy()).sum() for v in variables))}
