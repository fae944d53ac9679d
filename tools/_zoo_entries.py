"""The zoo scripts tools/zoo_check.py runs: their data, config overrides and flags."""
from __future__ import annotations

import dataclasses
import os
from typing import Callable, Optional, Sequence

import numpy as np

from tools._zoo_data import (Raw, words, write_cifar10_bin, write_image_folder, write_mindrecord, write_mnist,
                             write_text_lines, write_tfrecord)
from tools._zoo_export_check import ExportCheck

__all__ = ["Entry", "ENTRIES"]


# --------------------------------------------------------------------------------------------
# Entries.
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Entry:
    """One zoo script run.

    Attributes:
        name: Short unique name (``lenet-train``).
        script: Path of the script inside the zoo.
        args: Flags; ``{data}``, ``{work}``, ``{config}`` and ``{ckpt}`` are replaced by the data
            folder, the working folder, the copied config and the newest ``.ckpt`` of the
            ``after`` entry.
        data: Function ``data(folder)`` that writes the script's input data.
        config: Config yaml inside the zoo, copied to ``{config}`` with ``overrides`` applied.
        overrides: Values set in the copied config (``{data}`` and ``{work}`` are replaced in
            string values).
        after: Name of the entry whose checkpoint this one reads; it runs first.
        area: What the script is (cv, nlp, audio, recommendation).
        timeout: Time limit of this entry in seconds, when it needs more than ``--timeout``.
        check: For an ``export.py`` entry: how real MindSpore's check of the written MindIR
            runs (tools/_zoo_export_check.py).
    """

    name: str
    script: str
    args: list = dataclasses.field(default_factory=list)
    data: Optional[Callable[[str], None]] = None
    config: Optional[str] = None
    overrides: dict = dataclasses.field(default_factory=dict)
    after: Optional[str] = None
    area: str = "cv"
    timeout: Optional[float] = None
    check: Optional[ExportCheck] = None


def _mnist(root: str) -> None:
    write_mnist(root)


def _cifar(train_dir: str = "train", eval_dir: str = "eval") -> Callable[[str], None]:
    def make(root: str) -> None:
        write_cifar10_bin(root)
        for old, new in (("train", train_dir), ("eval", eval_dir)):
            if old != new:
                os.rename(os.path.join(root, old), os.path.join(root, new))
    return make


def _images(splits: Sequence[str] = ("train", "val"), num_classes: int = 2, per_class: int = 4,
            size: int = 40) -> Callable[[str], None]:
    return lambda root: write_image_folder(root, splits, num_classes=num_classes, per_class=per_class, size=size)


def _bert_pretrain(root: str, seq: int = 16, preds: int = 4, vocab: int = 100) -> None:
    write_tfrecord(os.path.join(root, "pretrain", "part-0.tfrecord"), {
        "input_ids": ("int", seq, vocab), "input_mask": ("ones", seq, 2), "segment_ids": ("int", seq, 2),
        "next_sentence_labels": ("int", 1, 2), "masked_lm_positions": ("int", preds, seq),
        "masked_lm_ids": ("int", preds, vocab), "masked_lm_weights": ("float_ones", preds, 1)}, n=8)


def _bert_classifier(root: str, seq: int = 16, vocab: int = 100) -> None:
    spec = {"input_ids": ("int", seq, vocab), "input_mask": ("ones", seq, 2), "segment_ids": ("int", seq, 2),
            "label_ids": ("int", 1, 2)}
    write_tfrecord(os.path.join(root, "train.tfrecord"), spec, n=8)
    write_tfrecord(os.path.join(root, "eval.tfrecord"), spec, n=4, seed=1)


def _transformer_mindrecord(root: str, seq: int = 16, vocab: int = 100, n: int = 8) -> None:
    # The bucket file of create_data.py for bucket length `seq`: <data_path>_<seq>_00.
    rng = np.random.default_rng(0)
    names = ["source_sos_ids", "source_sos_mask", "source_eos_ids", "source_eos_mask",
             "target_sos_ids", "target_sos_mask", "target_eos_ids", "target_eos_mask"]
    rows = []
    for _ in range(n):
        row = {}
        for name in names:
            if name.endswith("mask"):
                row[name] = np.ones(seq, dtype=np.int64)
            else:
                row[name] = rng.integers(1, vocab, size=seq).astype(np.int64)
        rows.append(row)
    write_mindrecord(os.path.join(root, f"ende-mindrecord_{seq}_00"),
                     {name: {"type": "int64", "shape": [-1]} for name in names}, rows)


def _ctr_tfrecord(root: str, vocab: int = 1000, line_per_sample: int = 1000) -> None:
    # Criteo as the recommendation scripts store it: each record holds line_per_sample samples
    # of 39 fields.
    spec = {"feat_ids": ("int", 39 * line_per_sample, vocab), "feat_vals": ("float", 39 * line_per_sample, 1.0),
            "label": ("int_as_float", line_per_sample, 2)}
    write_tfrecord(os.path.join(root, "train_part_0.tfrecord"), spec, n=2)
    write_tfrecord(os.path.join(root, "test_part_0.tfrecord"), spec, n=1, seed=1)


def _movie_review(root: str) -> None:
    rng = np.random.default_rng(0)
    write_text_lines(os.path.join(root, "rt-polarity.pos"), words(rng, 40))
    write_text_lines(os.path.join(root, "rt-polarity.neg"), words(rng, 40))


def _speech_feats(root: str, length: int = 49, dct: int = 20, classes: int = 12) -> None:
    rng = np.random.default_rng(0)
    for split, n in (("training", 8), ("validation", 4), ("testing", 4)):
        np.save(os.path.join(root, f"{split}_data.npy"), rng.standard_normal((n, length * dct)).astype(np.float32))
        np.save(os.path.join(root, f"{split}_label.npy"), rng.integers(0, classes, size=(n,)).astype(np.int64))


_CPU = {"device_target": "CPU", "enable_modelarts": False, "enable_profiling": False}

# CIFAR-10 files hold 10000 records each: large batches of small images keep an epoch short.
_RESNET_CIFAR = dict(_CPU, epoch_size=1, batch_size=500, warmup_epochs=0, save_checkpoint_epochs=1,
                     train_image_size=16, eval_image_size=16, run_eval=False,
                     data_path="{data}/train", output_dir="{work}/outputs", checkpoint_path="{work}/checkpoint")

# ResNet's eval.py resizes CIFAR-10 images to 224 whatever the config says (its CIFAR dataset
# function takes the training size, which eval.py leaves at 224), over the 10000 records of the
# test file: hours on a small CPU. The eval entries therefore evaluate the CIFAR-10 checkpoint
# through the script's ImageFolder path (`dataset: imagenet2012`), which crops to eval_image_size.
_RESNET_EVAL_DATA = _images(("val",), num_classes=10, per_class=1)
_RESNET_EVAL = dict(_RESNET_CIFAR, dataset="imagenet2012", data_path="{data}/val", batch_size=2,
                    use_label_smooth=False, label_smooth_factor=0.0)

_MOBILENETV2 = dict(_CPU, platform="CPU", dataset_path="{data}", batch_size=4, epoch_size=1, num_workers=1,
                    image_height=32, image_width=32, save_checkpoint_path="{work}/", save_checkpoint_epochs=1)

_MOBILENETV1 = dict(_CPU, dataset_path="{data}", batch_size=4, epoch_size=1, class_num=10, width=32, height=32,
                    save_checkpoint_epochs=1, save_checkpoint_path="{work}/ckpt/")

_VGG16 = dict(_CPU, image_size=[32, 32], num_classes=2, per_batch_size=4, batch_size=4, max_epoch=1,
              warmup_epochs=0, ckpt_interval=2, ckpt_path="{work}/outputs/", log_path="{work}/outputs/",
              output_path="{work}")

_BERT_TINY = {"seq_length": 16, "vocab_size": 100, "hidden_size": 32, "num_hidden_layers": 2,
              "num_attention_heads": 2, "intermediate_size": 64, "max_position_embeddings": 32}

ENTRIES: list[Entry] = [
    # --- cv -----------------------------------------------------------------------------------
    Entry("lenet-train", "research/cv/lenet/train.py", ["--config_path", "{config}"], _mnist,
          "research/cv/lenet/default_config.yaml",
          dict(_CPU, data_path="{data}", ckpt_path="{work}/ckpt", epoch_size=1, batch_size=16,
               save_checkpoint_steps=4)),
    Entry("lenet-eval", "research/cv/lenet/eval.py", ["--config_path", "{config}", "--ckpt_path", "{ckpt}"],
          _mnist, "research/cv/lenet/default_config.yaml", dict(_CPU, data_path="{data}", batch_size=16),
          after="lenet-train"),
    Entry("resnet18-cifar10-train", "official/cv/ResNet/train.py", ["--config_path", "{config}"], _cifar(),
          "official/cv/ResNet/config/resnet18_cifar10_config_gpu.yaml", _RESNET_CIFAR),
    Entry("resnet18-cifar10-eval", "official/cv/ResNet/eval.py",
          ["--config_path", "{config}", "--checkpoint_file_path", "{ckpt}"], _RESNET_EVAL_DATA,
          "official/cv/ResNet/config/resnet18_cifar10_config_gpu.yaml",
          _RESNET_EVAL, after="resnet18-cifar10-train"),
    Entry("resnet50-cifar10-train", "official/cv/ResNet/train.py", ["--config_path", "{config}"], _cifar(),
          "official/cv/ResNet/config/resnet50_cifar10_config.yaml", _RESNET_CIFAR),
    Entry("resnet50-cifar10-eval", "official/cv/ResNet/eval.py",
          ["--config_path", "{config}", "--checkpoint_file_path", "{ckpt}"], _RESNET_EVAL_DATA,
          "official/cv/ResNet/config/resnet50_cifar10_config.yaml",
          _RESNET_EVAL, after="resnet50-cifar10-train"),
    Entry("mobilenetv2-train", "official/cv/MobileNet/mobilenetv2/train.py", ["--config_path", "{config}"],
          _images(("train", "validation_preprocess")),
          "official/cv/MobileNet/mobilenetv2/default_config_cpu.yaml", _MOBILENETV2),
    Entry("mobilenetv2-eval", "official/cv/MobileNet/mobilenetv2/eval.py",
          ["--config_path", "{config}", "--pretrain_ckpt", "{ckpt}"], _images(("train", "validation_preprocess")),
          "official/cv/MobileNet/mobilenetv2/default_config_cpu.yaml", _MOBILENETV2, after="mobilenetv2-train"),
    Entry("vgg16-imagenet-train", "official/cv/VGG/vgg16/train.py", ["--config_path", "{config}"], _images(),
          "official/cv/VGG/vgg16/imagenet2012_config.yaml", dict(_VGG16, data_dir="{data}/train")),
    Entry("vgg16-imagenet-eval", "official/cv/VGG/vgg16/eval.py",
          ["--config_path", "{config}", "--pre_trained", "{ckpt}"],
          _images(), "official/cv/VGG/vgg16/imagenet2012_config.yaml", dict(_VGG16, data_dir="{data}/val"),
          after="vgg16-imagenet-train"),
    Entry("mobilenetv1-imagenet-train", "official/cv/MobileNet/mobilenetv1/train.py", ["--config_path", "{config}"],
          _images(("train", "validation_preprocess")), "official/cv/MobileNet/mobilenetv1/default_config_imagenet.yaml",
          _MOBILENETV1),
    Entry("mobilenetv1-imagenet-eval", "official/cv/MobileNet/mobilenetv1/eval.py",
          ["--config_path", "{config}", "--checkpoint_path", "{ckpt}"], _images(("train", "validation_preprocess")),
          "official/cv/MobileNet/mobilenetv1/default_config_imagenet.yaml", _MOBILENETV1,
          after="mobilenetv1-imagenet-train"),
    Entry("googlenet-imagenet-train", "research/cv/googlenet/train.py", ["--config_path", "{config}"], _images(),
          "research/cv/googlenet/imagenet_config.yaml",
          dict(_CPU, train_data_path="{data}/train/", val_data_path="{data}/val/", data_path="{data}", batch_size=4,
               epoch_size=1, num_classes=2, image_height=64, image_width=64, ckpt_save_dir="{work}/ckpt/")),
    Entry("squeezenet-imagenet-train", "research/cv/squeezenet/train.py", ["--config_path", "{config}"],
          _images(), "research/cv/squeezenet/squeezenet_cpu_config.yaml",
          dict(_CPU, data_path="{data}/train", batch_size=4, epoch_size=1, class_num=2,
               checkpoint_path="{work}/checkpoint/", output_path="{work}", width=64, height=64)),
    Entry("densenet121-imagenet-train", "research/cv/densenet/train.py", ["--config_path", "{config}"], _images(),
          "research/cv/densenet/densenet121_config.yaml",
          dict(_CPU, train_data_dir="{data}/train", image_size="64, 64", num_classes=2, per_batch_size=4,
               batch_size=4, max_epoch=1, ckpt_interval=2, save_ckpt_path="{work}/", log_path="{work}/")),
    Entry("inceptionv3-imagenet-train", "official/cv/Inception/inceptionv3/train.py", ["--config_path", "{config}"],
          _images(size=300), "official/cv/Inception/inceptionv3/default_config_cpu.yaml",
          dict(_CPU, ds_type="imagenet", data_path="{data}", dataset_path="{data}/train", output_path="{work}",
               ckpt_path="{work}", batch_size=4, epoch_size=1, num_classes=2, warmup_epochs=0, work_nums=1,
               width=299, height=299)),
    # --- nlp ----------------------------------------------------------------------------------
    Entry("bert-pretrain", "official/nlp/Bert/run_pretrain.py", ["--config_path", "{config}"], _bert_pretrain,
          "official/nlp/Bert/pretrain_config.yaml",
          dict(_CPU, data_dir="{data}/pretrain", dataset_format="tfrecord", epoch_size=1, batch_size=2,
               enable_data_sink="false", enable_lossscale="false", do_shuffle="false", save_checkpoint_steps=2,
               output_path="{work}", save_checkpoint_path="ckpt", bert_network="base", base_batch_size=2,
               **{f"base_net_cfg.{k}": v for k, v in _BERT_TINY.items()},
               **{"base_net_cfg.compute_type": Raw("mstype.float32"), "Lamb.warmup_steps": 1}),
          area="nlp"),
    Entry("bert-classifier", "official/nlp/Bert/run_classifier.py", ["--config_path", "{config}"], _bert_classifier,
          "official/nlp/Bert/task_classifier_cpu_config.yaml",
          dict(_CPU, load_pretrain_checkpoint_path="{ckpt}", do_train="true", do_eval="true", epoch_num=1,
               num_class=2, train_batch_size=2,
               eval_batch_size=1, dataset_format="tfrecord", train_data_file_path="{data}/train.tfrecord",
               eval_data_file_path="{data}/eval.tfrecord", data_path="{data}",
               save_finetune_checkpoint_path="{work}/ckpt/", output_path="{work}",
               **{f"bert_net_cfg.{k}": v for k, v in _BERT_TINY.items()},
               **{"bert_net_cfg.compute_type": Raw("mstype.float32")}),
          after="bert-pretrain", area="nlp"),
    Entry("transformer-train", "official/nlp/Transformer/train.py", ["--config_path", "{config}"],
          _transformer_mindrecord, "official/nlp/Transformer/default_config.yaml",
          dict(_CPU, data_path="{data}/ende-mindrecord", epoch_size=1, batch_size=2, seq_length=16, vocab_size=100,
               hidden_size=32,
               num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, max_position_embeddings=32,
               compute_type=Raw("mstype.float32"), save_checkpoint_steps=2,
               save_checkpoint_path="{work}", bucket_boundaries=[16]),
          area="nlp"),
    Entry("textcnn-mr-train", "research/nlp/textcnn/train.py", ["--config_path", "{config}"], _movie_review,
          "research/nlp/textcnn/mr_config_cpu.yaml",
          dict(_CPU, data_path="{data}", batch_size=8, epoch_size=1, output_path="{work}",
               checkpoint_path="{work}/checkpoint/"),
          area="nlp"),
    Entry("textcnn-mr-eval", "research/nlp/textcnn/eval.py", ["--config_path", "{config}"], _movie_review,
          "research/nlp/textcnn/mr_config_cpu.yaml",
          dict(_CPU, data_path="{data}", batch_size=8, checkpoint_file_path="{ckpt}"),
          after="textcnn-mr-train", area="nlp"),
    # --- audio --------------------------------------------------------------------------------
    Entry("dscnn-train", "research/audio/dscnn/train.py", ["--config_path", "{config}"], _speech_feats,
          "research/audio/dscnn/default_config.yaml",
          dict(_CPU, train_feat_dir="{data}", per_batch_size=4, max_epoch=1, lr_epochs="1",
               save_ckpt_path="{work}/checkpoint", ckpt_interval=1),
          area="audio"),
    Entry("dscnn-eval", "research/audio/dscnn/eval.py", ["--config_path", "{config}"], _speech_feats,
          "research/audio/dscnn/default_config.yaml",
          dict(_CPU, eval_feat_dir="{data}", per_batch_size=4, model_dir="{ckpt}", log_path="{work}/eval_outputs/"),
          after="dscnn-train", area="audio"),
    # --- recommendation -----------------------------------------------------------------------
    Entry("wide_and_deep-train", "official/recommend/Wide_and_Deep/train.py", ["--config_path", "{config}"],
          _ctr_tfrecord, "official/recommend/Wide_and_Deep/default_config.yaml",
          dict(_CPU, data_path="{data}", dataset_type="tfrecord", epochs=1, batch_size=1000, eval_batch_size=1000,
               vocab_size=1000, emb_dim=8, deep_layer_dim=[32, 16, 16, 8], ckpt_path="{work}/ckpt",
               eval_file_name="{work}/eval.log", loss_file_name="{work}/loss.log"),
          area="recommendation"),
    Entry("deepfm-train", "official/recommend/DeepFM/train.py", ["--config_path", "{config}"], _ctr_tfrecord,
          "official/recommend/DeepFM/default_config.yaml",
          dict(_CPU, dataset_path="{data}", data_format=2, train_epochs=1, batch_size=1000, data_vocab_size=1000,
               data_emb_dim=8, deep_layer_args=Raw('[[32, 16, 16, 8], "relu"]'), ckpt_path="{work}/ckpt",
               eval_file_name="{work}/auc.log", loss_file_name="{work}/loss.log", save_checkpoint_steps=1),
          area="recommendation"),
]


# --------------------------------------------------------------------------------------------
# export.py: each folder's export script on its training entry's checkpoint, then real
# MindSpore's check of the MindIR it wrote (tools/_zoo_export_check.py).
# --------------------------------------------------------------------------------------------

def _export(train: str, overrides: dict, name: str = "", data: Optional[Callable[[str], None]] = None,
            check: ExportCheck = ExportCheck(), timeout: Optional[float] = None) -> Entry:
    """The export entry of training entry ``train``: its folder's export.py, its config with its
    overrides and ``overrides`` on top (the checkpoint, a small batch, the output file)."""
    base = next(e for e in ENTRIES if e.name == train)
    return Entry(name or train.replace("-train", "") + "-export",
                 os.path.join(os.path.dirname(base.script), "export.py"), ["--config_path", "{config}"], data,
                 base.config, dict(base.overrides, file_format="MINDIR", **overrides), after=train, area=base.area,
                 timeout=timeout, check=check)


# SqueezeNet's export.py builds 1000 classes for ImageNet whatever the config says (10 for
# CIFAR-10): its export reads a checkpoint trained with class_num 1000 (the images' labels 0 and
# 1 are valid classes of it).
_SQUEEZENET_1000 = dataclasses.replace(
    next(e for e in ENTRIES if e.name == "squeezenet-imagenet-train"), name="squeezenet-imagenet1000-train")
_SQUEEZENET_1000.overrides = dict(_SQUEEZENET_1000.overrides, class_num=1000)

# The Transformer's inference graph is a beam search unrolled over max_decode_length steps.
_TRANSFORMER_EXPORT = {"model_file": "{ckpt}", "batch_size_ev": 2, "file_name": "{work}/transformer",
                       "max_decode_length": 4, "beam_width": 2}

_BERT_EXPORT = {"description": "run_classifier", "export_ckpt_file": "{ckpt}", "export_batch_size": 2,
                "export_file_name": "{work}/bert_classifier"}

# DenseNet's export.py exports in float16 (add_flags_recursive(fp16=True)). The briefly trained
# network's activations overflow float16 for inputs of magnitude 0.5 and more, in real MindSpore's
# own network and MindIR as well (inf / NaN outputs): the fixed input is drawn from [-0.1, 0.1),
# where MindSpore's own export is finite, and the tolerance is float16's.
# Through 121 float16 layers, one float16 ulp of the input moves MindSpore's own outputs by about
# 3e-3 of their scale: a difference within that spread is accepted.
_DENSENET_CHECK = ExportCheck(rtol=1e-3, float_range=(-0.1, 0.1), ulp_dtype="float16", spread_ok=True,
                              note="float16 network; inputs of magnitude 0.5 overflow float16 in MindSpore's "
                                   "own export of the same weights")

# The briefly trained MobileNetV2's outputs are ill-conditioned: on some inputs (export.py's own,
# an unseeded uniform draw) one float32 ulp of the input moves MindSpore's own outputs by 1e-4
# of their scale and more, so a difference within that spread is accepted.
_MOBILENETV2_CHECK = ExportCheck(spread_ok=True, note="outputs move by up to 3e-4 of their scale under "
                                                      "one-ulp input changes in MindSpore itself")

# run_classifier's config sets BERT's compute_type to float16 whatever the yaml says.
_BERT_CHECK = ExportCheck(rtol=1e-3, note="float16 network (compute_type forced by the script's config code)")

ENTRIES.append(_SQUEEZENET_1000)
ENTRIES.extend([
    _export("lenet-train", {"ckpt_file": "{ckpt}", "batch_size": 2, "file_name": "{work}/lenet"}),
    _export("resnet18-cifar10-train", {"checkpoint_file_path": "{ckpt}", "batch_size": 2, "width": 32,
                                       "height": 32, "file_name": "{work}/resnet18"}),
    _export("resnet50-cifar10-train", {"checkpoint_file_path": "{ckpt}", "batch_size": 2, "width": 32,
                                       "height": 32, "file_name": "{work}/resnet50"}),
    _export("mobilenetv2-train", {"ckpt_file": "{ckpt}", "batch_size_export": 2, "file_name": "{work}/mobilenetv2"},
            check=_MOBILENETV2_CHECK),
    _export("mobilenetv1-imagenet-train", {"ckpt_file": "{ckpt}", "batch_size": 2,
                                           "file_name": "{work}/mobilenetv1"}),
    _export("vgg16-imagenet-train", {"ckpt_file": "{ckpt}", "batch_size": 2, "file_name": "vgg16",
                                     "output_path": "{work}"}),
    _export("googlenet-imagenet-train", {"ckpt_file": "{ckpt}", "batch_size": 2, "file_name": "googlenet",
                                         "output_path": "{work}"}),
    _export("squeezenet-imagenet1000-train", {"checkpoint_file_path": "{ckpt}", "batch_size": 2,
                                              "file_name": "squeezenet", "output_path": "{work}"},
            name="squeezenet-imagenet-export"),
    _export("densenet121-imagenet-train", {"ckpt_files": "{ckpt}", "batch_size": 2, "file_name": "densenet121",
                                           "output_path": "{work}"}, check=_DENSENET_CHECK),
    _export("inceptionv3-imagenet-train", {"ckpt_file": "{ckpt}", "file_name": "{work}/inceptionv3"}),
    _export("textcnn-mr-train", {"checkpoint_file_path": "{ckpt}", "batch_size": 2, "file_name": "textcnn",
                                 "output_path": "{work}"}, data=_movie_review),
    _export("bert-classifier", dict(_BERT_EXPORT), name="bert-classifier-export", check=_BERT_CHECK),
    _export("transformer-train", dict(_TRANSFORMER_EXPORT)),
    _export("dscnn-train", {"export_ckpt_path": "{ckpt}", "per_batch_size": 2, "file_name": "dscnn",
                            "output_path": "{work}"}),
    _export("deepfm-train", {"ckpt_file": "{ckpt}", "batch_size": 2, "file_name": "{work}/deepfm"}),
])
