"""Steady time per step of model-zoo training scripts on tfspore against the same networks in Keras.

For each selected zoo training script the tool

1. writes synthetic data in the script's own format and a copy of its yaml config with small
   values (with the writers of ``tools/zoo_check.py``), then runs the script unchanged as
   ``python -m tfspore run SCRIPT --config_path CONFIG``;
2. runs the same network written in Keras 3 (``bench/_zoo_keras_models.py``: same layer shapes,
   batch size, image size, optimizer kind and dtype policy) with ``model.fit`` on in-memory
   data of the same size;
3. prints a table of the two steady times per step and their ratio tfspore / Keras.

The runs are interleaved (zoo script, then its Keras twin, for each script, ``--repeats``
times); the figures are medians over the repeats.

**How a zoo script's step time is measured.** tfspore has no hook to inject a callback into an
unchanged script, so the tool reads the timings the script itself prints: most scripts print
``per step time: X ms`` lines, either once per epoch (``TimeMonitor``, the ``Monitor`` of
MobileNetV2, DenseNet's ``per_step_time``: epoch wall time / steps of the epoch, with the
dataset sink over the whole epoch where the script sinks) or every 10 steps (ResNet's
``LossCallBack``: wall time of the last 10 steps / 10); DS-CNN prints its throughput
(``mean_wps``), turned into batch / throughput. The tool streams the script's output, takes each
of those figures as one window's mean step time, drops the first window (tracing, compilation
and the pipeline's start-up; ``ZooSpec.skip`` windows where a script traces again later), and
stops the script once it has the windows it needs (ResNet's CIFAR-10 epoch is 10000 images). The
steady time is the median of the remaining windows. The Keras twin runs epochs of the same
number of steps as the script's window, and its steady time is likewise the median over epochs
after the first of epoch time / steps. The zoo side's windows include its data pipeline (JPEG
decoding, augmentation, ``map``/``batch``), as the script's own figure does; the Keras side reads
in-memory arrays.

Example::

    .venv/bin/python -m bench.zoo_speed --zoo /work/zoo --only lenet resnet18 --steps 30
    .venv/bin/python -m bench.zoo_speed --zoo /work/zoo --repeats 2 --steps 10 --json zoo_speed.json
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import math
import os
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable, Optional, Sequence

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # the data writers import TensorFlow
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import numpy as np  # noqa: E402

from tools.zoo_check import (Raw, override_yaml, write_cifar10_bin, write_image_folder,  # noqa: E402
                             write_mindrecord, write_mnist, write_text_lines, write_tfrecord)
from tools._zoo_data import words  # noqa: E402

__all__ = ["ZooSpec", "SPECS", "parse_step_times", "steady_ms", "keras_steady_ms", "partial_step_ms", "ratio",
           "format_table", "run_zoo", "run_keras", "main"]

_STEP_TIME = re.compile(r"per[ _]step[ _]time:\s*([0-9]+(?:\.[0-9]*)?)")
_KERAS_EPOCH = re.compile(r"^ZOO_KERAS_EPOCH (\d+) ([0-9.]+)")
_KERAS_BATCH = re.compile(r"^ZOO_KERAS_BATCH (\d+) ([0-9.]+)")
_KERAS_START = re.compile(r"^ZOO_KERAS_FIT_START ([0-9.]+)")


# --------------------------------------------------------------------------------------------
# Parsing and arithmetic (no processes).
# --------------------------------------------------------------------------------------------

def parse_step_times(lines: Sequence[str], pattern: Optional[str] = None, per_second: int = 0) -> list:
    """The ``per step time`` figures (ms) of training windows printed by a zoo script, in order.

    Matches ``TimeMonitor`` (``Train epoch time: 198.863 ms, per step time: 66.288 ms``), the
    MobileNetV2 ``Monitor`` (``epoch time: 1.2, per step time: 0.3, avg loss: ...``), ResNet's
    ``LossCallBack`` lines (``..., loss: 2.3, per step time: 310.5 ms``) and DenseNet's
    ``ProgressMonitor`` (``..., per_step_time:12.34 ms, ...``); evaluation lines
    (``Eval epoch time ...``) are left out.

    Args:
        lines: The script's output lines.
        pattern: A regular expression to use instead, whose first group is the figure.
        per_second: With ``pattern``, the figure is a throughput in samples per second and
            this is the batch size: the step time is ``1000 * per_second / figure``.

    Returns:
        The figures as floats (ms).
    """
    regex = re.compile(pattern) if pattern else _STEP_TIME
    out = []
    for line in lines:
        m = regex.search(line)
        if not m or "eval" in line[:m.start()].lower():
            continue
        value = float(m.group(1))
        if pattern and per_second:
            value = 1000.0 * per_second / value if value > 0 else math.inf
        out.append(value)
    return out


def steady_ms(samples: Sequence[float], skip: int = 1) -> Optional[float]:
    """The median of ``samples`` after the first ``skip`` (``None`` when nothing is left)."""
    rest = list(samples[skip:])
    return statistics.median(rest) if rest else None


def keras_steady_ms(epoch_ends: Sequence[float], steps: int, skip: int = 1) -> Optional[float]:
    """The median over epochs after the first ``skip`` of epoch time / ``steps``, in ms.

    Args:
        epoch_ends: End time of each epoch in seconds since ``fit`` was called.
        steps: Steps per epoch.
        skip: Leading epochs left out (tracing and the first steps).

    Returns:
        Milliseconds per step, or ``None`` when too few epochs ended.
    """
    if steps <= 0:
        raise ValueError(f"For 'keras_steady_ms', the 'steps' must be positive, but got {steps}.")
    times = [b - a for a, b in zip([0.0] + list(epoch_ends[:-1]), epoch_ends)]
    return steady_ms([1000.0 * t / steps for t in times], skip)


def ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    """``a / b``, or ``None`` when either is missing or ``b`` is not positive."""
    if a is None or b is None or b <= 0:
        return None
    return a / b


def partial_step_ms(batch_ends: Sequence[float], elapsed: float) -> tuple:
    """The step time of a run stopped before its second epoch ended, from its step end times.

    With two or more steps ended, the median time of the steps after the first (measured single
    steps); with one, the time since it ended (the second step had not ended: a lower bound);
    with none, ``None``.

    Args:
        batch_ends: End time of each step in seconds since ``fit`` was called.
        elapsed: Seconds from the start of ``fit`` until the run was stopped.

    Returns:
        ``(ms, lower_bound)``.
    """
    if len(batch_ends) >= 2:
        diffs = [1000.0 * (b - a) for a, b in zip(batch_ends[:-1], batch_ends[1:])]
        return statistics.median(diffs), False
    if len(batch_ends) == 1:
        return 1000.0 * max(0.0, elapsed - batch_ends[0]), True
    return None, False


def _fmt(value: Optional[float], digits: int = 2, lower_bound: bool = False) -> str:
    if value is None:
        return "-"
    return (">" if lower_bound else "") + f"{value:.{digits}f}"


def format_table(rows: Sequence[dict], target: float = 1.2) -> str:
    """A markdown table: one row per script with both times per step and their ratio.

    Each row is a dict with ``name``, ``batch``, ``image``, ``policy``, ``tfspore_ms``,
    ``keras_ms`` and optionally ``keras_fp32_ms`` (the Keras twin in float32 where the zoo's
    policy is mixed) and ``keras_lower_bound`` (the Keras run hit its time limit: its figure is
    a lower bound).

    Args:
        rows: The rows.
        target: The ratio the last column is checked against.

    Returns:
        The table text.
    """
    out = ["| script | batch | image | policy | tfspore ms/step | keras ms/step | tfspore / keras "
           "| keras fp32 ms/step | tfspore / keras fp32 | <= %.1fx |" % target,
           "|---|---:|---:|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lb = bool(r.get("keras_lower_bound"))
        r1 = ratio(r.get("tfspore_ms"), r.get("keras_ms"))
        r2 = ratio(r.get("tfspore_ms"), r.get("keras_fp32_ms"))
        # With a lower bound on Keras's time, the ratio is an upper bound.
        worst = max([x for x in (r1, r2) if x is not None], default=None)
        ok = "-" if worst is None else ("yes" if worst <= target else "**no**")
        out.append(f"| {r['name']} | {r['batch']} | {r['image'] or '-'} | {r['policy']} | {_fmt(r.get('tfspore_ms'))} "
                   f"| {_fmt(r.get('keras_ms'), lower_bound=lb)} | {('<' if lb and r1 is not None else '') + _fmt(r1)} "
                   f"| {_fmt(r.get('keras_fp32_ms'))} | {_fmt(r2)} | {ok} |")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------
# The scripts.
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass
class ZooSpec:
    """One zoo training script and its Keras twin.

    Attributes:
        name: Short name (also the Keras builder's name unless ``keras_model`` says otherwise).
        script: Training script inside the zoo.
        config: Its yaml config inside the zoo (copied with ``overrides``).
        overrides: Values set in the copy; ``{data}``, ``{work}``, ``{batch}``, ``{epochs}``
            in string values are replaced.
        data: ``data(folder, batch, window)`` writes the input data.
        batch: Batch size (the same on both sides).
        image: Image height and width.
        channels: Image channels.
        classes: Classes of the network's head.
        policy: Keras dtype policy matching the script's amp level (``mixed_float16`` for O2).
        window: Steps in one timing window: ``"epoch"`` windows have ``window`` steps per epoch,
            ``"print"`` windows are the script's fixed print period.
        window_kind: ``"epoch"`` or ``"print"``.
        env: Extra environment of the script's process (``{shards}`` is replaced).
        weight_decay: The optimizer's weight decay (Keras: SGD's ``weight_decay``).
        lr: Learning rate of the Keras twin.
        keras_model: The Keras twin's name when it is not ``name``.
        keras_args: More flags of the Keras twin (optimizer family, clipping, builder arguments).
        pattern: Regular expression of the script's timing lines when they are not ``per step
            time`` figures (see :func:`parse_step_times`).
        per_second: ``pattern`` gives samples per second (the step time is batch / figure).
        note: What the row's config is, for the table.
        max_steps: Steady steps of this script at most (heavy networks), whatever ``--steps`` says.
        skip: Leading windows of the script left out (tracing; see DS-CNN's note).
    """

    name: str
    script: str
    config: str
    overrides: dict
    data: Callable[[str, int, int], None]
    batch: int
    image: int
    channels: int = 3
    classes: int = 10
    policy: str = "float32"
    window: int = 10
    window_kind: str = "epoch"
    env: dict = dataclasses.field(default_factory=dict)
    weight_decay: Optional[float] = None
    lr: float = 0.01
    keras_model: Optional[str] = None
    keras_args: list = dataclasses.field(default_factory=list)
    pattern: Optional[str] = None
    per_second: bool = False
    note: str = ""
    max_steps: Optional[int] = None
    skip: int = 1


def _mnist(root: str, batch: int, window: int) -> None:
    write_mnist(root, n_train=batch * window, n_test=batch)


def _cifar(root: str, batch: int, window: int) -> None:
    write_cifar10_bin(root)


def _cifar_vgg(root: str, batch: int, window: int) -> None:
    write_cifar10_bin(root)
    os.rename(os.path.join(root, "train"), os.path.join(root, "cifar-10-batches-bin"))


def _jpegs(root: str, batch: int, window: int) -> None:
    n = batch * window
    write_image_folder(root, ("train", "validation_preprocess"), num_classes=2, per_class=(n + 1) // 2, size=40)


def _jpegs_train(root: str, batch: int, window: int) -> None:
    # One epoch of `window` steps: `batch * window` JPEGs in root/train (two classes).
    write_image_folder(root, ("train",), num_classes=2, per_class=(batch * window + 1) // 2, size=40)


def _bert_records(root: str, batch: int, window: int) -> None:
    seq, preds, vocab = _BERT_TINY["seq_length"], 4, _BERT_TINY["vocab_size"]
    write_tfrecord(os.path.join(root, "pretrain", "part-0.tfrecord"), {
        "input_ids": ("int", seq, vocab), "input_mask": ("ones", seq, 2), "segment_ids": ("int", seq, 2),
        "next_sentence_labels": ("int", 1, 2), "masked_lm_positions": ("int", preds, seq),
        "masked_lm_ids": ("int", preds, vocab), "masked_lm_weights": ("float_ones", preds, 1)}, n=batch * window)


def _transformer_records(root: str, batch: int, window: int) -> None:
    seq, vocab = 16, 100
    rng = np.random.default_rng(0)
    names = ["source_sos_ids", "source_sos_mask", "source_eos_ids", "source_eos_mask",
             "target_sos_ids", "target_sos_mask", "target_eos_ids", "target_eos_mask"]
    rows = [{name: (np.ones(seq, dtype=np.int64) if name.endswith("mask")
                    else rng.integers(1, vocab, size=seq).astype(np.int64)) for name in names}
            for _ in range(batch * window)]
    write_mindrecord(os.path.join(root, f"ende-mindrecord_{seq}_00"),
                     {name: {"type": "int64", "shape": [-1]} for name in names}, rows)


def _movie_review(root: str, batch: int, window: int) -> None:
    # train.py keeps 90% of the lines for training; each file gets half of them.
    rng = np.random.default_rng(0)
    per_file = math.ceil(batch * window / 0.9 / 2) + 1
    write_text_lines(os.path.join(root, "rt-polarity.pos"), words(rng, per_file))
    write_text_lines(os.path.join(root, "rt-polarity.neg"), words(rng, per_file))


def _speech_feats(root: str, batch: int, window: int) -> None:
    rng = np.random.default_rng(0)
    for split, n in (("training", batch * window), ("validation", batch), ("testing", batch)):
        np.save(os.path.join(root, f"{split}_data.npy"), rng.standard_normal((n, 49 * 20)).astype(np.float32))
        np.save(os.path.join(root, f"{split}_label.npy"), rng.integers(0, 12, size=(n,)).astype(np.int64))


def _ctr_records(root: str, batch: int, window: int) -> None:
    # Criteo as DeepFM stores it: every record holds 1000 samples of 39 fields (batch 1000: a
    # record a step).
    spec = {"feat_ids": ("int", 39 * 1000, 1000), "feat_vals": ("float", 39 * 1000, 1.0),
            "label": ("int_as_float", 1000, 2)}
    write_tfrecord(os.path.join(root, "train_part_0.tfrecord"), spec, n=window * batch // 1000)
    write_tfrecord(os.path.join(root, "test_part_0.tfrecord"), spec, n=1, seed=1)


_CPU = {"device_target": "CPU", "enable_modelarts": False, "enable_profiling": False}

_BERT_TINY = {"seq_length": 16, "vocab_size": 100, "hidden_size": 32, "num_hidden_layers": 2,
              "num_attention_heads": 2, "intermediate_size": 64, "max_position_embeddings": 32}
_TRANSFORMER_TINY = {"seq_length": 16, "vocab_size": 100, "hidden_size": 32, "num_hidden_layers": 1,
                     "num_attention_heads": 2, "intermediate_size": 64}

_RESNET = dict(_CPU, epoch_size=1, batch_size="{batch}", warmup_epochs=0, save_checkpoint=False,
               train_image_size=32, eval_image_size=32, run_eval=False, data_path="{data}/train",
               output_dir="{work}/outputs", checkpoint_path="{work}/checkpoint")

SPECS: list = [
    ZooSpec("lenet", "research/cv/lenet/train.py", "research/cv/lenet/default_config.yaml",
            dict(_CPU, data_path="{data}", ckpt_path="{work}/ckpt", epoch_size="{epochs}", batch_size="{batch}",
                 save_checkpoint_steps=10 ** 6), _mnist, batch=32, image=32, channels=1, window=40),
    ZooSpec("resnet18", "official/cv/ResNet/train.py", "official/cv/ResNet/config/resnet18_cifar10_config_gpu.yaml",
            _RESNET, _cifar, batch=32, image=32, window=10, window_kind="print", weight_decay=1e-4),
    ZooSpec("resnet50", "official/cv/ResNet/train.py", "official/cv/ResNet/config/resnet50_cifar10_config.yaml",
            _RESNET, _cifar, batch=32, image=32, window=10, window_kind="print", weight_decay=1e-4),
    ZooSpec("mobilenetv2", "official/cv/MobileNet/mobilenetv2/train.py",
            "official/cv/MobileNet/mobilenetv2/default_config_cpu.yaml",
            dict(_CPU, platform="CPU", dataset_path="{data}", batch_size="{batch}", epoch_size="{epochs}",
                 num_workers=1, image_height=32, image_width=32, save_checkpoint=False,
                 save_checkpoint_path="{work}/"),
            _jpegs, batch=32, image=32, classes=26, window=10, weight_decay=4e-5),
    # VGG16's CIFAR-10 config: amp_level O2 without a loss-scale manager, 224x224 images. Its data
    # function shards Cifar10Dataset by RANK_SIZE / RANK_ID (read by the script's device adapter,
    # not by tfspore): RANK_SIZE makes the epoch `window` steps long, and RANK_ID=1 with the
    # config's `is_save_on_master: 1` keeps the script from writing a 500 MB checkpoint.
    ZooSpec("vgg16", "official/cv/VGG/vgg16/train.py", "official/cv/VGG/vgg16/cifar10_config.yaml",
            dict(_CPU, dataset="cifar10", data_dir="{data}", image_size=["{image}", "{image}"],
                 per_batch_size="{batch}",
                 batch_size="{batch}", max_epoch="{epochs}", warmup_epochs=0, ckpt_path="{work}/outputs/",
                 log_path="{work}/outputs/", is_save_on_master=1, is_distributed=False),
            _cifar_vgg, batch=4, image=112, policy="mixed_float16", window=4, max_steps=8,
            env={"RANK_SIZE": "{shards}", "RANK_ID": "1"}, weight_decay=5e-4, note="O2, 112x112"),
    # ImageNet-style scripts on an ImageFolder tree of small JPEGs (RandomCropDecodeResize to the
    # script's size). MobileNetV1 and SqueezeNet crop to their fixed 224 / 227 whatever the config says.
    ZooSpec("mobilenetv1", "official/cv/MobileNet/mobilenetv1/train.py",
            "official/cv/MobileNet/mobilenetv1/default_config_imagenet.yaml",
            dict(_CPU, dataset_path="{data}", batch_size="{batch}", epoch_size="{epochs}", class_num=10,
                 save_checkpoint=False, save_checkpoint_path="{work}/ckpt/"),
            _jpegs_train, batch=4, image=224, window=5, max_steps=10, weight_decay=1e-4),
    # GoogLeNet's train.py always passes amp_level="O2" with a FixedLossScaleManager(1024).
    ZooSpec("googlenet", "research/cv/googlenet/train.py", "research/cv/googlenet/imagenet_config.yaml",
            dict(_CPU, train_data_path="{data}/train/", val_data_path="{data}/train/", data_path="{data}",
                 batch_size="{batch}", epoch_size="{epochs}", num_classes=10, image_height="{image}",
                 image_width="{image}", ckpt_save_dir="{work}/ckpt/"),
            _jpegs_train, batch=8, image=64, policy="mixed_float16", window=5, weight_decay=1e-4,
            lr=0.1, note="O2, loss scale 1024"),
    ZooSpec("squeezenet", "research/cv/squeezenet/train.py", "research/cv/squeezenet/squeezenet_cpu_config.yaml",
            dict(_CPU, data_path="{data}/train", batch_size="{batch}", epoch_size="{epochs}", class_num=10,
                 save_checkpoint=False, checkpoint_path="{work}/checkpoint/", output_path="{work}"),
            _jpegs_train, batch=4, image=227, window=5, max_steps=10, weight_decay=7e-5,
            keras_args=["--sgd_nesterov"], note="SqueezeNet_Residual"),
    ZooSpec("densenet121", "research/cv/densenet/train.py", "research/cv/densenet/densenet121_config.yaml",
            dict(_CPU, train_data_dir="{data}/train", image_size="{image}, {image}", num_classes=10,
                 per_batch_size="{batch}", batch_size="{batch}", max_epoch="{epochs}", ckpt_interval=10 ** 6,
                 log_interval=10 ** 6, save_ckpt_path="{work}/", log_path="{work}/"),
            _jpegs_train, batch=8, image=64, window=5, max_steps=10, weight_decay=1e-4, lr=0.1),
    # Inception-v3 trains without dataset sink and its ModelCheckpoint saves every epoch inside the
    # timed epoch; the Keras twin saves its weights at the end of every epoch too.
    ZooSpec("inceptionv3", "official/cv/Inception/inceptionv3/train.py",
            "official/cv/Inception/inceptionv3/default_config_cpu.yaml",
            dict(_CPU, ds_type="imagenet", data_path="{data}", dataset_path="{data}/train", output_path="{work}",
                 ckpt_path="{work}", batch_size="{batch}", epoch_size="{epochs}", num_classes=10, warmup_epochs=0,
                 work_nums=2, keep_checkpoint_max=1),
            _jpegs_train, batch=2, image=299, window=3, max_steps=6, weight_decay=4e-5, lr=0.1,
            keras_args=["--optimizer", "rmsprop", "--epsilon", "1.0", "--save_each_epoch"],
            note="RMSProp, aux head, ckpt every epoch"),
    ZooSpec("bert", "official/nlp/Bert/run_pretrain.py", "official/nlp/Bert/pretrain_config.yaml",
            dict(_CPU, data_dir="{data}/pretrain", dataset_format="tfrecord", epoch_size="{epochs}",
                 batch_size="{batch}", enable_data_sink="true", data_sink_steps="{window}", enable_lossscale="false",
                 do_shuffle="false", enable_save_ckpt="false", output_path="{work}", save_checkpoint_path="ckpt",
                 bert_network="base", base_batch_size="{batch}",
                 **{f"base_net_cfg.{k}": v for k, v in _BERT_TINY.items()},
                 **{"base_net_cfg.compute_type": Raw("mstype.float32"), "Lamb.warmup_steps": 1}),
            _bert_records, batch=16, image=0, window=10, lr=3e-4,
            keras_args=["--optimizer", "lamb", "--epsilon", "1e-8", "--clipnorm", "1.0", "--weight_decay", "0.01",
                        "--extra", json.dumps(_BERT_TINY)],
            note="pretrain, tiny config, Lamb, fp32"),
    ZooSpec("transformer", "official/nlp/Transformer/train.py", "official/nlp/Transformer/default_config.yaml",
            dict(_CPU, data_path="{data}/ende-mindrecord", epoch_size="{epochs}", batch_size="{batch}",
                 max_position_embeddings=32, compute_type=Raw("mstype.float32"),
                 enable_save_ckpt="false", save_checkpoint_path="{work}", bucket_boundaries=[16],
                 **_TRANSFORMER_TINY),
            _transformer_records, batch=16, image=0, window=10, lr=1e-3,
            keras_args=["--optimizer", "adam", "--clipnorm", "5.0", "--loss_scale", "1024",
                        "--extra", json.dumps(_TRANSFORMER_TINY)],
            note="tiny config, Adam, fp32, dynamic loss scale"),
    ZooSpec("textcnn", "research/nlp/textcnn/train.py", "research/nlp/textcnn/mr_config_cpu.yaml",
            dict(_CPU, data_path="{data}", batch_size="{batch}", epoch_size="{epochs}", output_path="{work}",
                 checkpoint_path="{work}/checkpoint/"),
            _movie_review, batch=64, image=0, window=10, lr=1e-3,
            keras_args=["--optimizer", "adam", "--weight_decay", "3e-5"], note="MR, Adam"),
    # DS-CNN prints throughput (``mean_wps:X wavs/sec``) once an epoch; its TimeMonitor divides the
    # epoch by the batch size, not by the steps, so its ``per step time`` is not one. Its validation
    # after every epoch calls ``to_float(float32)`` on the network, which changes the cells' compute
    # type from none to float32 once: the second epoch traces the step again, so two windows are
    # left out.
    ZooSpec("dscnn", "research/audio/dscnn/train.py", "research/audio/dscnn/default_config.yaml",
            dict(_CPU, train_feat_dir="{data}", per_batch_size="{batch}", max_epoch="{epochs}", lr_epochs="1000,2000",
                 save_ckpt_path="{work}/checkpoint", ckpt_interval=10 ** 6, log_interval=10 ** 6),
            _speech_feats, batch=32, image=0, channels=1, classes=12, window=10, weight_decay=1e-3,
            lr=0.1, pattern=r"mean_wps:([0-9.]+) wavs/sec", per_second=True, keras_args=["--momentum", "0.98"], skip=2,
            note="49x20 MFCC"),
    ZooSpec("deepfm", "official/recommend/DeepFM/train.py", "official/recommend/DeepFM/default_config.yaml",
            dict(_CPU, dataset_path="{data}", data_format=2, train_epochs="{epochs}", batch_size="{batch}",
                 data_vocab_size=1000, data_emb_dim=16, deep_layer_args=Raw('[[256, 128, 64, 32], "relu"]'),
                 save_checkpoint=False, do_eval=False, eval_callback=False, ckpt_path="{work}/ckpt",
                 eval_file_name="{work}/auc.log", loss_file_name="{work}/loss.log"),
            _ctr_records, batch=1000, image=0, window=10, lr=5e-4,
            keras_args=["--optimizer", "adam", "--epsilon", "5e-8"], note="vocab 1000, emb 16, Adam"),
]


def _subst(value: object, subst: dict) -> object:
    if isinstance(value, Raw):
        return value
    if isinstance(value, list):
        return [_subst(v, subst) for v in value]
    if isinstance(value, str):
        for key, rep in subst.items():
            value = value.replace("{" + key + "}", str(rep))
        return int(value) if re.fullmatch(r"-?\d+", value) else value
    return value


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["CUDA_VISIBLE_DEVICES"] = ""
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _stream(command: list, cwd: str, env: dict, log_path: str, timeout: float,
            enough: Callable[[list], bool]) -> tuple:
    """Runs ``command``, copying its output to ``log_path``; stops it once ``enough(lines)``.

    Returns ``(lines, returncode, timed_out, seconds)``; returncode is ``None`` when stopped.
    """
    lines: list = []
    start = time.monotonic()
    timed_out = False
    with open(log_path, "w", encoding="utf-8") as log:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        buf = b""
        stopped = False
        try:
            while True:
                left = timeout - (time.monotonic() - start)
                if left <= 0:
                    timed_out = True
                    break
                ready, _, _ = select.select([proc.stdout], [], [], min(left, 1.0))
                if not ready:
                    if proc.poll() is not None:
                        break
                    continue
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                buf += chunk
                *done, buf = buf.split(b"\n")
                for raw in done:
                    line = raw.decode("utf-8", errors="replace")
                    lines.append(line)
                    log.write(line + "\n")
                log.flush()
                if done and enough(lines):
                    stopped = True
                    break
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
        if buf:
            lines.append(buf.decode("utf-8", errors="replace"))
            log.write(lines[-1] + "\n")
    code = None if (stopped or timed_out) else proc.returncode
    return lines, code, timed_out, time.monotonic() - start


def run_zoo(spec: ZooSpec, zoo: str, workdir: str, windows: int, timeout: float, python: str) -> dict:
    """Runs the zoo script unchanged until it printed ``windows`` + 1 step-time figures.

    Returns:
        ``{"samples": [...], "ms": steady ms or None, "status": ..., "seconds": ..., "log": path}``.
    """
    data_dir = os.path.join(workdir, "data")
    os.makedirs(data_dir, exist_ok=True)
    spec.data(data_dir, spec.batch, spec.window)
    epochs = 1 if spec.window_kind == "print" else windows + spec.skip
    subst = {"data": data_dir, "work": workdir, "batch": spec.batch, "epochs": epochs, "window": spec.window,
             "image": spec.image,
             "shards": max(1, 10000 // (spec.batch * spec.window))}
    with open(os.path.join(zoo, spec.config), encoding="utf-8") as f:
        text = f.read()
    config = os.path.join(workdir, os.path.basename(spec.config))
    with open(config, "w", encoding="utf-8") as f:
        f.write(override_yaml(text, {k: _subst(v, subst) for k, v in spec.overrides.items()}))
    env = _env()
    env.update({k: str(_subst(v, subst)) for k, v in spec.env.items()})
    command = [python, "-m", "tfspore", "run", os.path.join(zoo, spec.script), "--config_path", config]
    need = windows + spec.skip
    log_path = os.path.join(workdir, "run.log")
    per_second = spec.batch if spec.per_second else 0
    parse = lambda ls: parse_step_times(ls, spec.pattern, per_second)  # noqa: E731
    lines, code, timed_out, seconds = _stream(command, workdir, env, log_path, timeout,
                                              lambda ls: len(parse(ls[-3:])) > 0 and len(parse(ls)) >= need)
    samples = parse(lines)
    status = "ok" if len(samples) > spec.skip else ("timeout" if timed_out else f"failed (exit {code})")
    if status != "ok":
        tail = [ln for ln in lines if ln.strip()][-3:]
        status += ": " + " / ".join(t.strip()[:160] for t in tail)
    return {"samples": samples, "ms": steady_ms(samples, spec.skip), "status": status, "seconds": seconds,
            "log": log_path}


def run_keras(spec: ZooSpec, windows: int, timeout: float, python: str, workdir: str,
              policy: Optional[str] = None) -> dict:
    """Runs the Keras twin for ``windows`` + 1 epochs of ``spec.window`` steps.

    Returns:
        ``{"epoch_ends": [...], "ms": ..., "lower_bound": bool, "status": ..., "seconds": ...}``;
        when the run hits ``timeout`` before its second epoch ended, ``ms`` comes from its single
        steps (:func:`partial_step_ms`).
    """
    policy = policy or spec.policy
    command = [python, "-m", "bench._zoo_keras_models", "--model", spec.keras_model or spec.name,
               "--batch", str(spec.batch), "--image", str(spec.image), "--channels", str(spec.channels),
               "--classes", str(spec.classes), "--steps", str(spec.window), "--epochs", str(windows + 1),
               "--policy", policy, "--lr", str(spec.lr)]
    if spec.weight_decay:
        command += ["--weight_decay", str(spec.weight_decay)]
    command += list(spec.keras_args)
    if "--save_each_epoch" in command:
        command += ["--save_dir", workdir]
    log_path = os.path.join(workdir, f"keras_{policy}.log")
    lines, code, timed_out, seconds = _stream(command, _ROOT, _env(), log_path, timeout,
                                              lambda ls: ls[-1].startswith("ZOO_KERAS {"))
    stopped_at = time.time()
    ends = [float(m.group(2)) for m in (_KERAS_EPOCH.match(ln) for ln in lines) if m]
    batch_ends = [float(m.group(2)) for m in (_KERAS_BATCH.match(ln) for ln in lines) if m]
    ms = keras_steady_ms(ends, spec.window) if ends else None
    lower_bound = False
    if ms is None and timed_out:
        fit_start = [float(m.group(1)) for m in (_KERAS_START.match(ln) for ln in lines) if m]
        if fit_start:
            ms, lower_bound = partial_step_ms(batch_ends, stopped_at - fit_start[0])
    status = "ok" if ms is not None and not lower_bound else ("timeout" if timed_out else f"failed (exit {code})")
    if timed_out and ms is not None and not lower_bound and len(ends) < 2:
        status = f"timeout after {len(batch_ends)} steps (single-step times)"
    return {"epoch_ends": ends, "ms": ms, "lower_bound": lower_bound, "status": status, "seconds": seconds,
            "log": log_path}


def _median(values: list) -> Optional[float]:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line entry point; returns 0 when every script was measured on both sides."""
    parser = argparse.ArgumentParser(prog="zoo_speed.py", description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", required=True, help="folder of the model zoo (mindspore-ai/models)")
    parser.add_argument("--only", nargs="+", default=[], metavar="NAME", help="run only these scripts")
    parser.add_argument("--steps", type=int, default=30, help="steady steps to time on each side (after the first window)")
    parser.add_argument("--repeats", type=int, default=1, help="interleaved repeats (the table shows medians)")
    parser.add_argument("--batch", type=int, default=None, help="batch size for every script (default: each spec's)")
    parser.add_argument("--timeout", type=float, default=600.0, help="time limit of each run in seconds")
    parser.add_argument("--keras_fp16_timeout", type=float, default=30.0,
                        help="time limit of a mixed_float16 Keras run (TensorFlow's float16 convolutions "
                             "on a CPU take minutes a step)")
    parser.add_argument("--keras_fp16_repeats", type=int, default=1,
                        help="run the mixed_float16 Keras twin in the first N repeats only")
    parser.add_argument("--no_keras_fp32", action="store_true",
                        help="skip the float32 Keras reference of the scripts that use a mixed policy")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--workdir", default=None, help="keep the working folders here (default: removed)")
    parser.add_argument("--json", default=None, metavar="OUT", help="write the results as JSON")
    args = parser.parse_args(argv)
    by_name = {s.name: s for s in SPECS}
    unknown = [n for n in args.only if n not in by_name]
    if unknown:
        parser.error(f"the argument '--only' must name scripts of the list, but got {unknown[0]!r} "
                     f"(known: {', '.join(by_name)})")
    if args.steps <= 0:
        parser.error(f"the argument '--steps' must be positive, but got {args.steps!r}")
    zoo = os.path.abspath(args.zoo)
    specs = [by_name[n] for n in args.only] if args.only else list(SPECS)
    if args.batch:
        specs = [dataclasses.replace(s, batch=args.batch) for s in specs]
    base = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="zoo_speed_")
    started = datetime.datetime.now(datetime.timezone.utc)
    results: dict = {s.name: {"zoo": [], "keras": [], "keras_fp32": []} for s in specs}
    try:
        for rep in range(args.repeats):
            for spec in specs:
                steps = min(args.steps, spec.max_steps) if spec.max_steps else args.steps
                windows = max(1, math.ceil(steps / spec.window))
                work = os.path.join(base, f"{spec.name}_{rep}")
                shutil.rmtree(work, ignore_errors=True)
                os.makedirs(work)
                z = run_zoo(spec, zoo, work, windows, args.timeout, args.python)
                print(f"[{rep}] {spec.name:<12} tfspore: {z['status']}, windows {[round(s, 1) for s in z['samples']]} "
                      f"-> {_fmt(z['ms'])} ms/step ({z['seconds']:.0f} s)", flush=True)
                results[spec.name]["zoo"].append(z)
                mixed = spec.policy != "float32"
                if not mixed or rep < args.keras_fp16_repeats:
                    kt = args.keras_fp16_timeout if mixed else args.timeout
                    k = run_keras(spec, windows, kt, args.python, work)
                    print(f"[{rep}] {spec.name:<12} keras {spec.policy}: {k['status']} -> "
                          f"{_fmt(k['ms'], lower_bound=k['lower_bound'])} ms/step ({k['seconds']:.0f} s)", flush=True)
                    results[spec.name]["keras"].append(k)
                if spec.policy != "float32" and not args.no_keras_fp32:
                    k32 = run_keras(spec, windows, args.timeout, args.python, work, policy="float32")
                    print(f"[{rep}] {spec.name:<12} keras float32: {k32['status']} -> {_fmt(k32['ms'])} ms/step "
                          f"({k32['seconds']:.0f} s)", flush=True)
                    results[spec.name]["keras_fp32"].append(k32)
    finally:
        if not args.workdir:
            shutil.rmtree(base, ignore_errors=True)
    rows = []
    for spec in specs:
        r = results[spec.name]
        rows.append({"name": spec.name + (f" ({spec.note})" if spec.note else ""), "batch": spec.batch,
                     "image": spec.image, "policy": spec.policy,
                     "tfspore_ms": _median([z["ms"] for z in r["zoo"]]),
                     "keras_ms": _median([k["ms"] for k in r["keras"]]),
                     "keras_lower_bound": any(k["lower_bound"] for k in r["keras"]),
                     "keras_fp32_ms": _median([k["ms"] for k in r["keras_fp32"]])})
    print()
    print(format_table(rows), end="")
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover
        load = None
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"date": started.strftime("%Y-%m-%d %H:%M UTC"), "load_average_end": load,
                       "command": ["bench/zoo_speed.py"] + list(argv if argv is not None else sys.argv[1:]),
                       "rows": rows,
                       "runs": {n: {side: [{k: v for k, v in run.items() if k != "log"} for run in runs]
                                    for side, runs in r.items()} for n, r in results.items()}}, f, indent=1)
            f.write("\n")
    return 0 if all(row["tfspore_ms"] is not None and (row["keras_ms"] is not None or row["keras_fp32_ms"] is not None)
                    for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
