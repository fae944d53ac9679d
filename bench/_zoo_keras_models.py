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

* ``mobilenetv1``, ``googlenet``, ``squeezenet``, ``densenet121``, ``inceptionv3``, ``dscnn``: see
  their builders.

The NLP and recommendation networks (``bert``, ``transformer``, ``textcnn``, ``deepfm``) are in
``bench/_zoo_keras_nlp.py``.

Run as a module, it trains one of them with ``model.fit`` (``steps_per_execution=1``, the zoo
script's optimizer family: SGD with momentum by default, ``--optimizer rmsprop|adam|lamb``;
sparse softmax cross-entropy for the image networks) on in-memory random data and prints one line
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


def _conv_bn_act(x, filters: int, k, stride=1, act: str = "relu", padding: str = "same", eps: float = 1e-5,
                 momentum: float = 0.9, depthwise: bool = False):
    """Convolution without bias, BatchNorm (MindSpore momentum ``momentum``), activation."""
    layers = _layers()
    if depthwise:
        x = layers.DepthwiseConv2D(k, strides=stride, padding=padding, use_bias=False)(x)
    else:
        x = layers.Conv2D(filters, k, strides=stride, padding=padding, use_bias=False)(x)
    x = layers.BatchNormalization(momentum=momentum, epsilon=eps)(x)
    if act == "relu6":
        return layers.ReLU(6.0)(x)
    return layers.ReLU()(x) if act else x


_MOBILENETV1 = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1),
                (512, 1), (512, 1), (1024, 2), (1024, 1))


def mobilenetv1(image: int, channels: int, classes: int):
    """MobileNetV1 of ``official/cv/MobileNet/mobilenetv1``: 'same' convolutions without bias, BatchNorm,
    ReLU6; 13 depthwise 3x3 + pointwise 1x1 pairs; spatial mean; dense."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = _conv_bn_act(inp, 32, 3, 2, act="relu6")
    for filters, stride in _MOBILENETV1:
        x = _conv_bn_act(x, None, 3, stride, act="relu6", depthwise=True)
        x = _conv_bn_act(x, filters, 1, 1, act="relu6")
    x = layers.GlobalAveragePooling2D()(x)
    return keras.Model(inp, layers.Dense(classes, dtype="float32")(x))


def _googlenet_block(x, n1, n3r, n3, n5r, n5, pool):
    layers = _layers()
    cb = lambda t, f, k: _conv_bn_act(t, f, k, eps=1e-3)  # noqa: E731
    b1 = cb(x, n1, 1)
    b2 = cb(cb(x, n3r, 1), n3, 3)
    b3 = cb(cb(x, n5r, 1), n5, 3)  # the zoo's "5x5" branch is a 3x3 convolution
    b4 = cb(layers.MaxPooling2D(3, 1, padding="same")(x), pool, 1)
    return layers.Concatenate()([b1, b2, b3, b4])


def googlenet(image: int, channels: int, classes: int):
    """GoogLeNet of ``research/cv/googlenet``: 'same' convolutions without bias, BatchNorm (eps 1e-3),
    ReLU; 9 inception blocks whose second and third branches are 1x1 -> 3x3; 'same' max-pools;
    spatial mean; dense (the zoo's dropout is defined but not applied)."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = _conv_bn_act(inp, 64, 7, 2, eps=1e-3)
    x = layers.MaxPooling2D(3, 2, padding="same")(x)
    x = _conv_bn_act(x, 64, 1, eps=1e-3)
    x = _conv_bn_act(x, 192, 3, eps=1e-3)
    x = layers.MaxPooling2D(3, 2, padding="same")(x)
    x = _googlenet_block(x, 64, 96, 128, 16, 32, 32)
    x = _googlenet_block(x, 128, 128, 192, 32, 96, 64)
    x = layers.MaxPooling2D(3, 2, padding="same")(x)
    for cfg in ((192, 96, 208, 16, 48, 64), (160, 112, 224, 24, 64, 64), (128, 128, 256, 24, 64, 64),
                (112, 144, 288, 32, 64, 64), (256, 160, 320, 32, 128, 128)):
        x = _googlenet_block(x, *cfg)
    x = layers.MaxPooling2D(2, 2, padding="same")(x)
    x = _googlenet_block(x, 256, 160, 320, 32, 128, 128)
    x = _googlenet_block(x, 384, 192, 384, 48, 128, 128)
    x = layers.GlobalAveragePooling2D()(x)
    return keras.Model(inp, layers.Dense(classes, dtype="float32")(x))


def _fire(x, squeeze: int, e1: int, e3: int):
    layers = _layers()
    x = layers.Conv2D(squeeze, 1, activation="relu")(x)
    return layers.Concatenate()([layers.Conv2D(e1, 1, activation="relu")(x),
                                 layers.Conv2D(e3, 3, padding="same", activation="relu")(x)])


def squeezenet(image: int, channels: int, classes: int):
    """SqueezeNet with simple bypass (``SqueezeNet_Residual``, what ``research/cv/squeezenet``'s
    train.py builds for its config's ``net_name``): 7x7/2 'valid' convolution with bias, 'valid'
    3x3/2 max-pools, 8 fire modules with residual additions around fire 3, 5, 7 and 9, dropout 0.5,
    1x1 convolution to the classes, ReLU, spatial mean."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = layers.Conv2D(96, 7, strides=2, padding="valid", activation="relu")(inp)
    x = layers.MaxPooling2D(3, 2)(x)
    x = _fire(x, 16, 64, 64)
    x = layers.Add()([x, _fire(x, 16, 64, 64)])
    x = _fire(x, 32, 128, 128)
    x = layers.MaxPooling2D(3, 2)(x)
    x = layers.Add()([x, _fire(x, 32, 128, 128)])
    x = _fire(x, 48, 192, 192)
    x = layers.Add()([x, _fire(x, 48, 192, 192)])
    x = _fire(x, 64, 256, 256)
    x = layers.MaxPooling2D(3, 2)(x)
    x = layers.Add()([x, _fire(x, 64, 256, 256)])
    x = layers.Dropout(0.5)(x)
    x = layers.Conv2D(classes, 1, activation="relu", dtype="float32")(x)
    return keras.Model(inp, layers.GlobalAveragePooling2D(dtype="float32")(x))


def _bn_relu(x):
    layers = _layers()
    return layers.ReLU()(layers.BatchNormalization(momentum=0.9, epsilon=1e-5)(x))


def densenet121(image: int, channels: int, classes: int):
    """DenseNet-121 of ``research/cv/densenet``: 7x7/2 stem and 3x3 convolutions with explicit padding
    (``pad_mode='pad'``: zero-padding, then 'valid'), 'same' 3x3/2 max-pool, dense blocks 6/12/24/16
    of BN-ReLU-1x1(128)-BN-ReLU-3x3(32), transitions BN-ReLU-1x1-2x2 max-pool, BN-ReLU, spatial mean,
    dense."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = layers.Conv2D(64, 7, strides=2, use_bias=False)(layers.ZeroPadding2D(3)(inp))
    x = layers.MaxPooling2D(3, 2, padding="same")(_bn_relu(x))
    features = 64
    for i, n in enumerate((6, 12, 24, 16)):
        for _ in range(n):
            y = layers.Conv2D(128, 1, use_bias=False)(_bn_relu(x))
            y = layers.Conv2D(32, 3, use_bias=False)(layers.ZeroPadding2D(1)(_bn_relu(y)))
            x = layers.Concatenate()([x, y])
        features += 32 * n
        if i != 3:
            features //= 2
            x = layers.MaxPooling2D(2, 2)(layers.Conv2D(features, 1, use_bias=False)(_bn_relu(x)))
    x = layers.GlobalAveragePooling2D()(_bn_relu(x))
    return keras.Model(inp, layers.Dense(classes, dtype="float32")(x))


def _inc_conv(x, filters: int, k, stride: int = 1, padding: str = "same"):
    return _conv_bn_act(x, filters, k, stride, padding=padding, eps=1e-3, momentum=0.9997)


def _inception_v3_blocks(x):
    layers = _layers()
    cat = lambda ts: layers.Concatenate()(ts)  # noqa: E731
    avg = lambda t: layers.AveragePooling2D(3, 1, padding="same")(t)  # noqa: E731
    for pool_features in (32, 64, 64):  # Mixed_5b..5d
        x = cat([_inc_conv(x, 64, 1), _inc_conv(_inc_conv(x, 48, 1), 64, 5),
                 _inc_conv(_inc_conv(_inc_conv(x, 64, 1), 96, 3), 96, 3), _inc_conv(avg(x), pool_features, 1)])
    x = cat([_inc_conv(x, 384, 3, 2, "valid"),  # Mixed_6a
             _inc_conv(_inc_conv(_inc_conv(x, 64, 1), 96, 3), 96, 3, 2, "valid"), layers.MaxPooling2D(3, 2)(x)])
    for c in (128, 160, 160, 192):  # Mixed_6b..6e
        b1 = _inc_conv(_inc_conv(_inc_conv(x, c, 1), c, (1, 7)), 192, (7, 1))
        b2 = _inc_conv(x, c, 1)
        for k, f in (((7, 1), c), ((1, 7), c), ((7, 1), c), ((1, 7), 192)):
            b2 = _inc_conv(b2, f, k)
        x = cat([_inc_conv(x, 192, 1), b1, b2, _inc_conv(avg(x), 192, 1)])
    return x


def inceptionv3(image: int, channels: int, classes: int):
    """Inception-v3 of ``official/cv/Inception/inceptionv3`` in training mode: convolutions without
    bias, BatchNorm (eps 1e-3), ReLU; Mixed_5b-7c; the auxiliary head on Mixed_6e (5x5/3 average
    pool, 1x1 and 5x5 convolutions with bias, dense) and the main head (8x8 average pool, dropout
    0.2, dense). Outputs ``[logits, aux_logits]`` (the zoo's loss weighs the auxiliary one 0.2)."""
    import keras
    layers = _layers()
    inp = keras.Input((image, image, channels))
    x = _inc_conv(inp, 32, 3, 2, "valid")
    x = _inc_conv(x, 32, 3, 1, "valid")
    x = _inc_conv(x, 64, 3)
    x = layers.MaxPooling2D(3, 2)(x)
    x = _inc_conv(x, 80, 1)
    x = _inc_conv(x, 192, 3, 1, "valid")
    x = layers.MaxPooling2D(3, 2)(x)
    x = _inception_v3_blocks(x)
    aux = layers.AveragePooling2D(5, 3)(x)
    aux = layers.Conv2D(128, 1)(aux)
    aux = layers.Flatten()(layers.Conv2D(768, 5)(aux))
    aux = layers.Dense(classes, dtype="float32", name="aux")(aux)
    cat = lambda ts: layers.Concatenate()(ts)  # noqa: E731
    x = cat([_inc_conv(_inc_conv(x, 192, 1), 320, 3, 2, "valid"),  # Mixed_7a
             _inc_conv(_inc_conv(_inc_conv(_inc_conv(x, 192, 1), 192, (1, 7)), 192, (7, 1)), 192, 3, 2, "valid"),
             layers.MaxPooling2D(3, 2)(x)])
    for _ in range(2):  # Mixed_7b, 7c
        b1 = _inc_conv(x, 384, 1)
        b2 = _inc_conv(_inc_conv(x, 448, 1), 384, 3)
        x = cat([_inc_conv(x, 320, 1), cat([_inc_conv(b1, 384, (1, 3)), _inc_conv(b1, 384, (3, 1))]),
                 cat([_inc_conv(b2, 384, (1, 3)), _inc_conv(b2, 384, (3, 1))]),
                 _inc_conv(layers.AveragePooling2D(3, 1, padding="same")(x), 192, 1)])
    x = layers.Flatten()(layers.Dropout(0.2)(layers.AveragePooling2D(8, 1)(x)))
    return keras.Model(inp, [layers.Dense(classes, dtype="float32", name="logits")(x), aux])


def dscnn(image: int, channels: int, classes: int):
    """DS-CNN of ``research/audio/dscnn`` (``model_size_info`` of its default config) on 49x20 MFCC
    features: 10x4/(2, 1) 'same' convolution (276) without bias, BatchNorm; 5 depthwise 3x3
    (stride 2 then 1) + pointwise 1x1 pairs with BatchNorm and ReLU; average pool over the whole
    map; dropout 0.1; dense. ``image`` is ignored (the input is 49x20x1)."""
    import keras
    layers = _layers()
    inp = keras.Input((49, 20, 1))
    x = _conv_bn_act(inp, 276, (10, 4), (2, 1), act=None, momentum=0.98)
    for stride in (2, 1, 1, 1, 1):
        x = _conv_bn_act(x, None, 3, stride, momentum=0.98, depthwise=True)
        x = _conv_bn_act(x, 276, 1, momentum=0.98)
    x = layers.Dropout(0.1)(layers.GlobalAveragePooling2D()(x))
    return keras.Model(inp, layers.Dense(classes, dtype="float32")(x))


BUILDERS = {"lenet": lenet, "resnet18": resnet18, "resnet50": resnet50, "mobilenetv2": mobilenetv2,
            "vgg16": vgg16, "mobilenetv1": mobilenetv1, "googlenet": googlenet, "squeezenet": squeezenet,
            "densenet121": densenet121, "inceptionv3": inceptionv3, "dscnn": dscnn}


def build(name: str, image: int, channels: int, classes: int, policy: str = "float32"):
    """Builds network ``name`` under Keras dtype policy ``policy`` (``float32`` / ``mixed_float16``)."""
    import keras
    keras.mixed_precision.set_global_policy(policy)
    return BUILDERS[name](image, channels, classes)


def _optimizer(args):
    """The Keras optimizer of the zoo script's optimizer family (``--loss_scale``: under a dynamic
    loss scale starting there, doubled after 2000 finite steps, as the zoo's
    ``DynamicLossScaleManager(init, 2, 2000)``)."""
    import keras
    opt = _base_optimizer(args)
    if args.loss_scale and args.policy == "float32":  # mixed_float16 wraps it in fit already
        return keras.optimizers.LossScaleOptimizer(opt, initial_scale=args.loss_scale, dynamic_growth_steps=2000)
    return opt


def _base_optimizer(args):
    import keras
    clip = {"clipnorm": args.clipnorm} if args.clipnorm else {}
    if args.optimizer == "sgd":
        return keras.optimizers.SGD(args.lr, momentum=args.momentum, nesterov=args.sgd_nesterov,
                                    weight_decay=args.weight_decay, **clip)
    if args.optimizer == "rmsprop":
        # MindSpore's RMSProp(decay=0.9, momentum, epsilon) is Keras's rho / momentum / epsilon.
        return keras.optimizers.RMSprop(args.lr, rho=0.9, momentum=args.momentum, epsilon=args.epsilon,
                                        weight_decay=args.weight_decay, **clip)
    if args.optimizer == "adam":
        return keras.optimizers.Adam(args.lr, epsilon=args.epsilon, weight_decay=args.weight_decay, **clip)
    if args.optimizer == "lamb":
        return keras.optimizers.Lamb(args.lr, beta_1=0.99, beta_2=0.999, epsilon=args.epsilon,
                                     weight_decay=args.weight_decay, **clip)
    raise ValueError(f"For '_zoo_keras_models', the 'optimizer' must be sgd, rmsprop, adam or lamb, "
                     f"but got {args.optimizer!r}.")


def _twin(args):
    """``(model, x, y, loss, loss_weights)`` of the selected network."""
    import keras
    from bench._zoo_keras_nlp import TWINS
    n = args.batch * args.steps
    extra = json.loads(args.extra) if args.extra else {}
    keras.mixed_precision.set_global_policy(args.policy)
    if args.model in TWINS:
        model, x, y, loss = TWINS[args.model](args.batch, n, **extra)
        return model, x, y, loss, None
    model = build(args.model, args.image, args.channels, args.classes, args.policy)
    rng = np.random.default_rng(0)
    shape = tuple(model.inputs[0].shape[1:])
    x = rng.standard_normal((n,) + shape).astype(np.float32)
    y = rng.integers(0, args.classes, size=(n,)).astype(np.int32)
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    if len(model.outputs) > 1:  # Inception-v3: main and auxiliary logits, the zoo's aux_factor 0.2
        return model, x, (y, y), [loss, loss], [1.0, extra.get("aux_factor", 0.2)]
    return model, x, y, loss, None


def main(argv=None) -> None:
    """Trains one network with ``model.fit`` and prints ``ZOO_KERAS {json}`` with the epoch end times."""
    from bench._zoo_keras_nlp import TWINS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, choices=sorted(set(BUILDERS) | set(TWINS)))
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--image", type=int, default=32)
    parser.add_argument("--channels", type=int, default=3)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--steps", type=int, required=True, help="steps per epoch")
    parser.add_argument("--epochs", type=int, required=True)
    parser.add_argument("--policy", default="float32", choices=["float32", "mixed_float16"])
    parser.add_argument("--optimizer", default="sgd", choices=["sgd", "rmsprop", "adam", "lamb"])
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--epsilon", type=float, default=1e-7)
    parser.add_argument("--weight_decay", type=float, default=None)
    parser.add_argument("--clipnorm", type=float, default=None, help="clip every gradient to this norm")
    parser.add_argument("--loss_scale", type=float, default=None, help="dynamic loss scale starting here")
    parser.add_argument("--sgd_nesterov", action="store_true", help="SGD with Nesterov momentum")
    parser.add_argument("--extra", default=None, help="JSON keyword arguments of the network's builder")
    parser.add_argument("--save_each_epoch", action="store_true",
                        help="save the weights at the end of every epoch, inside the timed epoch")
    parser.add_argument("--save_dir", default=None, help="folder of --save_each_epoch's file")
    args = parser.parse_args(argv)

    import keras

    model, x, y, loss, loss_weights = _twin(args)
    model.compile(optimizer=_optimizer(args), loss=loss, loss_weights=loss_weights, steps_per_execution=1)
    ends: list = []

    callbacks = []
    if args.save_each_epoch:
        path = os.path.join(args.save_dir or ".", f"{args.model}.weights.h5")
        callbacks.append(keras.callbacks.ModelCheckpoint(path, save_weights_only=True, save_freq="epoch"))

    class _Timer(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            print(f"ZOO_KERAS_BATCH {batch} {time.perf_counter() - start:.6f}", flush=True)

        def on_epoch_end(self, epoch, logs=None):
            ends.append(time.perf_counter() - start)
            print(f"ZOO_KERAS_EPOCH {epoch} {ends[-1]:.6f}", flush=True)

    print(f"ZOO_KERAS_FIT_START {time.time():.6f}", flush=True)
    start = time.perf_counter()
    model.fit(x, y, batch_size=args.batch, epochs=args.epochs, shuffle=False, verbose=0,
              callbacks=callbacks + [_Timer()])
    print("ZOO_KERAS " + json.dumps({"epoch_ends": ends, "steps": args.steps, "model": args.model,
                                     "policy": args.policy}), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main()
