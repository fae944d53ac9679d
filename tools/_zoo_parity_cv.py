"""The image-classification scripts tools/zoo_parity.py compares beyond LeNet and ResNet.

Each reads an ImageFolder tree of JPEGs written at the size the network trains on (so the
``Resize`` standing in for ``RandomCropDecodeResize`` keeps the decoded pixels), one epoch of
``steps * batch`` images read in file order.
"""
from __future__ import annotations

from typing import Callable

from zoo_check import write_image_folder
from zoo_parity import ParityEntry

__all__ = ["CV_PARITY_ENTRIES", "image_folder"]


def image_folder(size: int, splits: tuple = ("train", "val"), num_classes: int = 2,
                 per_class: int = 10) -> Callable[[str], None]:
    """An ImageFolder writer: ``per_class`` JPEGs of ``size`` x ``size`` in each class folder of each split."""
    def write(root: str) -> None:
        write_image_folder(root, splits, num_classes=num_classes, per_class=per_class, size=size)
    return write


# The hooks and their notes shared by the ImageFolder entries.
_HOOKS = {"no_shuffle": True, "no_sink": True, "loss_monitor": True, "no_random_augment": True}
_SHUFFLE = ("shuffle (ImageFolderDataset(shuffle=True), no flag: launcher hook shuffle=False{extra}); ")
_AUGMENT = ("random augmentation ({names} in the training pipeline, no flag: launcher hook no_random_augment "
            "replaces RandomCropDecodeResize(size) by Decode() + Resize((size, size)) and leaves the random flip"
            "{color} out, in both frameworks; the JPEGs are written at the training size, so Resize keeps the "
            "decoded pixels); ")
_SINK = ("sink mode (launcher hook passes dataset_sink_mode=False, what MindSpore's CPU build runs anyway); "
         "{why}")


def _notes(names: str, color: bool, init: str, extra_shuffle: str = "", why: str = "", more: str = "") -> str:
    return (_SHUFFLE.format(extra=extra_shuffle)
            + _AUGMENT.format(names=names, color=" and the colour jitter" if color else "")
            + more + _SINK.format(why=why) + init)


def _scaled_lr(keys: str, lr: float, batch: int, scaled: float) -> str:
    return (f"learning rate scaled to batch 4 (config {keys} {lr:g} is for batches of {batch}: {lr:g} * 4 / {batch} "
            f"= {scaled:g}; at {lr:g} the batch-4 losses swing by several times within 3 steps in both frameworks, "
            "see docs/zoo.md); ")


_RCDR_FLIP = "RandomCropDecodeResize, RandomHorizontalFlip"
_VGG_DROPOUT = "dropout (config has_dropout: False); "
_RCDR_FLIP_COLOR = "RandomCropDecodeResize, RandomHorizontalFlip, RandomColorAdjust"

CV_PARITY_ENTRIES: list[ParityEntry] = [
    ParityEntry("mobilenetv2", "mobilenetv2-train", batch=4, data=image_folder(64, ("train", "validation_preprocess")),
                overrides={"batch_size": 4, "epoch_size": 1, "image_height": 64, "image_width": 64,
                           "save_checkpoint": False, "pretrain_ckpt": "{init}", "lr_max": 0.0008, "lr_end": 0.0008},
                hooks=dict(_HOOKS), ckpt_option=True,
                turned_off=_notes(_RCDR_FLIP_COLOR, True, "init weights through the script's pretrain_ckpt option",
                                  extra_shuffle=", and Dataset.shuffle(buffer_size=1000) made the identity",
                                  why="per-step LossMonitor(1) added (the script's Monitor prints only per epoch); ",
                                  more="no dropout in the training network (has_dropout=False); "
                                       + _scaled_lr("lr_max and lr_end", 0.03, 150, 0.0008))),
    ParityEntry("mobilenetv1", "mobilenetv1-imagenet-train", batch=4,
                data=image_folder(64, ("train", "validation_preprocess")),
                overrides={"batch_size": 4, "epoch_size": 1, "width": 64, "height": 64, "save_checkpoint": False,
                           "pre_trained": "{init}", "lr_max": 0.0125},
                hooks=dict(_HOOKS, loss_monitor=False), ckpt_option=True,
                turned_off=_notes(_RCDR_FLIP, False, "init weights through the script's pre_trained option",
                                  more="no dropout in the network; " + _scaled_lr("lr_max", 0.8, 256, 0.0125))),
    ParityEntry("vgg16", "vgg16-imagenet-train", batch=4, data=image_folder(32),
                overrides={"per_batch_size": 4, "batch_size": 4, "has_dropout": False, "pre_trained": "{init}",
                           "ckpt_interval": 1000},
                hooks=dict(_HOOKS, loss_monitor=False, amp_level="O0"), ckpt_option=True,
                turned_off=_notes(_RCDR_FLIP, False, "init weights through the script's pre_trained option",
                                  more=_VGG_DROPOUT + "float16 casts (Model(amp_level='O2') in train.py, no flag: "
                                       "launcher hook amp_level='O0' in both frameworks; the script's "
                                       "FixedLossScaleManager(1024) stays); ")),
    # VGG16 as the script trains it, amp O2: every convolution and matrix product, and the weights
    # they read, in float16. Two float16 computations of the same network agree to float16's
    # precision (about 1e-3 relative per rounding), not float32's.
    ParityEntry("vgg16-o2", "vgg16-imagenet-train", batch=4, data=image_folder(32),
                overrides={"per_batch_size": 4, "batch_size": 4, "has_dropout": False, "pre_trained": "{init}",
                           "ckpt_interval": 1000},
                hooks=dict(_HOOKS, loss_monitor=False), ckpt_option=True, rtol=1e-2,
                turned_off=_notes(_RCDR_FLIP, False, "init weights through the script's pre_trained option",
                                  more=_VGG_DROPOUT + "amp O2 kept (float16 convolutions and matrix products, "
                                       "compared at rtol 1e-2); ")),
    ParityEntry("googlenet", "googlenet-imagenet-train", batch=4, data=image_folder(64),
                overrides={"batch_size": 4, "epoch_size": 1, "image_height": 64, "image_width": 64,
                           "pre_trained": True, "checkpoint_path": "{init}", "lr_init": 0.0015625},
                init_overrides={"pre_trained": False},
                hooks=dict(_HOOKS, loss_monitor=False, no_dropout=True, amp_level="O0"), ckpt_option=True,
                turned_off=_notes(_RCDR_FLIP_COLOR, True,
                                  "init weights through the script's pre_trained/checkpoint_path options",
                                  more="dropout (nn.Dropout(p=0.2) before the classifier, no flag: launcher hook "
                                       "no_dropout builds nn.Dropout with p=0.0, the identity, in both frameworks); "
                                       "float16 casts (Model(amp_level='O2', keep_batchnorm_fp32=False) in "
                                       "train.py, no flag: launcher hook amp_level='O0' in both frameworks; the "
                                       "script's FixedLossScaleManager(1024) stays); "
                                       + _scaled_lr("lr_init", 0.1, 256, 0.0015625))),
    ParityEntry("squeezenet", "squeezenet-imagenet-train", batch=4, data=image_folder(227),
                overrides={"batch_size": 4, "epoch_size": 1, "pre_trained": "{init}", "save_checkpoint": False},
                hooks=dict(_HOOKS, loss_monitor=False, no_dropout=True, no_nesterov=True), ckpt_option=True,
                timeout=600,
                turned_off=_notes(_RCDR_FLIP_COLOR + ", CutOut(112)", True,
                                  "init weights through the script's pre_trained option",
                                  more="CutOut (a random square erased: left out by the same hook); dropout "
                                       "(nn.Dropout(p=0.5) before the final convolution, no flag: launcher hook "
                                       "no_dropout, p=0.0); Nesterov momentum (Momentum(use_nesterov=True) in "
                                       "train.py, no flag: launcher hook no_nesterov builds it with "
                                       "use_nesterov=False in both frameworks; MindSpore 2.10's CPU kernel ignores "
                                       "the flag, tfspore applies the documented Nesterov update); the imagenet "
                                       "pipeline crops to a hard-coded 227, so the images are 227x227; ")),
    ParityEntry("densenet121", "densenet121-imagenet-train", batch=4, data=image_folder(64),
                overrides={"per_batch_size": 4, "batch_size": 4, "image_size": "64, 64",
                           "train_pretrained": "{init}", "ckpt_interval": 1000, "lr": 0.0015625},
                hooks=dict(_HOOKS), ckpt_option=True,
                turned_off=_notes(_RCDR_FLIP_COLOR, True, "init weights through the script's train_pretrained "
                                  "option (it strips the 'network.' prefix of the training cell's names)",
                                  why="per-step LossMonitor(1) added (the script's ProgressMonitor prints no "
                                      "per-step loss); ",
                                  more="no dropout (drop_rate=0 in DenseNet121); "
                                       + _scaled_lr("lr", 0.1, 256, 0.0015625).replace(
                                           "batches of 256", "batches of 256 (32 on each of 8 devices)"))),
    ParityEntry("inceptionv3", "inceptionv3-imagenet-train", batch=2, data=image_folder(299, per_class=5),
                overrides={"batch_size": 2, "dropout_keep_prob": 1.0, "resume": "{init}"},
                hooks=dict(_HOOKS), ckpt_option=True, timeout=1500,
                turned_off=_notes(_RCDR_FLIP_COLOR, True, "init weights through the script's resume option",
                                  why="per-step LossMonitor(1) added (the script's LossMonitor prints once per "
                                      "epoch); ",
                                  more="dropout (config dropout_keep_prob: 1.0); amp_level O0 already (CPU "
                                       "config); the imagenet pipeline crops to a hard-coded 299 (and the "
                                       "classifier's 8x8 pooling needs it), so the images are 299x299, batch 2; ")),
]
