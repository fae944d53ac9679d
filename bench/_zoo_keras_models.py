"""The zoo scripts' networks as a Keras 3 user writes them (NHWC), timed under ``model.fit``.

Each builder returns a ``keras.Model`` with the layer shapes of the zoo network of the same name:

* ``lenet``: LeNet-5 of ``research/cv/lenet`` (conv 6 / 16 5x5 valid, ReLU, max-pool 2, dense
  120-84-classes), input 1x32x32.
* ``resnet18``: ResNet-18 of ``official/cv/ResNet`` (7x7/2 stem, BatchNorm, 3x3/2 max-pool, basic
  blocks 64/128/256/512 x 2, global average pool, dense), without convolution biases, with the
  zoo's explicit padding (``ZeroPadding2D`` then 'valid', as its ``pad_mode='pad'`` means).
* ``resnet50``: ResNet-50 of ``official/cv/ResNet`` (bottleneck blocks 3/4/6/3, the stride in
  the 3x3 convolution, no convolution biases, 'same' padding as the zoo's ``pad_mode='same'``).
* ``mobilenetv2``: ``keras.applications.MobileNetV2`` (width 1.0).
* ``vgg16``: VGG-16 of ``official/cv/VGG/vgg16`` with its CIFAR-10 config (``batch_norm: True``,
  ``pad_mode: same``, no dropout): 13 3x3 convolutions with BatchNorm and ReLU, 5 max-pools, dense
  4096-4096-classes on the flattened ``512 x H/32 x W/32`` features.

Run as a module, it trains one of them with ``model.fit`` (``steps_per_execution=1``, SGD with
momentum 0.9, sparse softmax cross-entropy) on in-memory random data and prints one line
``ZOO_KERAS {json}`` holding the end time of every epoch (seconds since ``fit`` was called), after
a line ``ZOO_KERAS_BATCH i t`` at the end of every step and ``ZOO_KERAS_EPOCH i t`` at the end of
every epoch (read when the run is stopped early)::

    python -m bench._zoo_keras_models --model lenet --batch 32 --image 32 --channels 1 \
        --classes 10 --steps 20 --epochs 4 --policy float32
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import numpy as np  # noqa: E402

__all__ = ["BUILDERS", "build", "main"]


def _layers():
    from keras import layers
    return layers


def lenet(image: int, channels: int, classes: int):
    """LeNet-5 (valid 5x5 convolutions, ReLU, max-pooling, dense 120-84-classes)."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = layers.MaxPooling2D(2)(layers.Conv2D(6, 5, padding="valid", activation="relu")(inp))
    x = layers.MaxPooling2D(2)(layers.Conv2D(16, 5, padding="valid", activation="relu")(x))
    x = layers.Flatten()(x)
    x = layers.Dense(120, activation="relu")(x)
    x = layers.Dense(84, activation="relu")(x)
    return keras.Model(inp, layers.Dense(classes, dtype="float32")(x))


def _conv_bn(x, filters: int, k: int, stride: int = 1, relu: bool = True, explicit_pad: bool = False):
    layers = _layers()
    if explicit_pad and k > 1:
        # MindSpore's pad_mode='pad' with padding k // 2: zero-pad, then a 'valid' convolution.
        x = layers.ZeroPadding2D(k // 2)(x)
    x = layers.Conv2D(filters, k, strides=stride, padding="valid" if explicit_pad else "same", use_bias=False)(x)
    x = layers.BatchNormalization(momentum=0.9, epsilon=1e-5)(x)
    return layers.ReLU()(x) if relu else x


def resnet18(image: int, channels: int, classes: int):
    """ResNet-18 as the zoo builds it (``res_base=True``): convolutions with explicit padding
    (``pad_mode='pad'``: zero-padding, then 'valid'), 7x7/2 stem, zero-pad 1 and 3x3/2 'valid'
    max-pool, 4 stages of 2 basic blocks, global pool, dense."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = _conv_bn(inp, 64, 7, 2, explicit_pad=True)
    x = layers.MaxPooling2D(3, 2, padding="valid")(layers.ZeroPadding2D(1)(x))
    for i, filters in enumerate((64, 128, 256, 512)):
        for j in range(2):
            stride = 2 if (i > 0 and j == 0) else 1
            out = _conv_bn(x, filters, 3, stride, explicit_pad=True)
            out = _conv_bn(out, filters, 3, 1, relu=False, explicit_pad=True)
            if stride != 1 or x.shape[-1] != filters:
                x = _conv_bn(x, filters, 1, stride, relu=False, explicit_pad=True)
            x = layers.ReLU()(layers.Add()([out, x]))
    x = layers.GlobalAveragePooling2D()(x)
    return keras.Model(inp, layers.Dense(classes, dtype="float32")(x))


def resnet50(image: int, channels: int, classes: int):
    """ResNet-50 as the zoo builds it: bottleneck blocks with the stride in the 3x3 convolution
    (``keras.applications.ResNet50`` puts it in the first 1x1 one and adds convolution biases)."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = _conv_bn(inp, 64, 7, 2)
    x = layers.MaxPooling2D(3, 2, padding="same")(x)
    for i, (blocks, out_ch) in enumerate(zip((3, 4, 6, 3), (256, 512, 1024, 2048))):
        for j in range(blocks):
            stride = 2 if (i > 0 and j == 0) else 1
            mid = out_ch // 4
            out = _conv_bn(x, mid, 1)
            out = _conv_bn(out, mid, 3, stride)
            out = _conv_bn(out, out_ch, 1, relu=False)
            if stride != 1 or x.shape[-1] != out_ch:
                x = _conv_bn(x, out_ch, 1, stride, relu=False)
            x = layers.ReLU()(layers.Add()([out, x]))
    x = layers.GlobalAveragePooling2D()(x)
    return keras.Model(inp, layers.Dense(classes, dtype="float32")(x))


def mobilenetv2(image: int, channels: int, classes: int):
    """``keras.applications.MobileNetV2`` (width 1.0) without pretrained weights."""
    import keras
    return keras.applications.MobileNetV2(weights=None, input_shape=(image, image, channels), classes=classes,
                                          classifier_activation=None)


_VGG16 = (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M")


def vgg16(image: int, channels: int, classes: int):
    """VGG-16 with BatchNorm after every convolution, dense 4096-4096-classes."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = inp
    for v in _VGG16:
        if v == "M":
            x = layers.MaxPooling2D(2)(x)
        else:
            x = layers.Conv2D(v, 3, padding="same")(x)
            x = layers.ReLU()(layers.BatchNormalization(momentum=0.9, epsilon=1e-5)(x))
    x = layers.Flatten()(x)
    x = layers.Dense(4096, activation="relu")(x)
    x = layers.Dense(4096, activation="relu")(x)
    return keras.Model(inp, layers.Dense(classes, dtype="float32")(x))


BUILDERS = {"lenet": lenet, "resnet18": resnet18, "resnet50": resnet50, "mobilenetv2": mobilenetv2,
            "vgg16": vgg16}


def build(name: str, image: int, channels: int, classes: int, policy: str = "float32"):
    """Builds network ``name`` under Keras dtype policy ``policy`` (``float32`` / ``mixed_float16``)."""
    import keras
    keras.mixed_precision.set_global_policy(policy)
    return BUILDERS[name](image, channels, classes)


def main(argv=None) -> None:
    """Trains one network with ``model.fit`` and prints ``ZOO_KERAS {json}`` with the epoch end times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, choices=sorted(BUILDERS))
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--image", type=int, required=True)
    parser.add_argument("--channels", type=int, default=3)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--steps", type=int, required=True, help="steps per epoch")
    parser.add_argument("--epochs", type=int, required=True)
    parser.add_argument("--policy", default="float32", choices=["float32", "mixed_float16"])
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--weight_decay", type=float, default=None)
    args = parser.parse_args(argv)

    import keras

    model = build(args.model, args.image, args.channels, args.classes, args.policy)
    opt = keras.optimizers.SGD(args.lr, momentum=0.9, weight_decay=args.weight_decay)
    model.compile(optimizer=opt, loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  steps_per_execution=1)
    rng = np.random.default_rng(0)
    n = args.batch * args.steps
    x = rng.standard_normal((n, args.image, args.image, args.channels)).astype(np.float32)
    y = rng.integers(0, args.classes, size=(n,)).astype(np.int32)
    ends: list = []

    class _Timer(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            print(f"ZOO_KERAS_BATCH {batch} {time.perf_counter() - start:.6f}", flush=True)

        def on_epoch_end(self, epoch, logs=None):
            ends.append(time.perf_counter() - start)
            print(f"ZOO_KERAS_EPOCH {epoch} {ends[-1]:.6f}", flush=True)

    print(f"ZOO_KERAS_FIT_START {time.time():.6f}", flush=True)
    start = time.perf_counter()
    model.fit(x, y, batch_size=args.batch, epochs=args.epochs, shuffle=False, verbose=0, callbacks=[_Timer()])
    print("ZOO_KERAS " + json.dumps({"epoch_ends": ends, "steps": args.steps, "model": args.model,
                                     "policy": args.policy}), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main()
