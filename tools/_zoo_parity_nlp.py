"""Loss-parity entries of the model zoo's NLP scripts (BERT, Transformer, TextCNN) for zoo_parity.py.

``NLP_PARITY_ENTRIES`` joins ``zoo_parity.PARITY_ENTRIES`` (zoo_parity imports this module at its
end: import zoo_parity first). Each entry runs a ``tools/zoo_check.py`` entry's script, flags and
config with its own data (records for 20 steps; TextCNN's zoo_check data has 9) and overrides:
dropout off, float32 compute (through the yaml where the script reads it from there, else through
the launcher's ``force_attr`` hook, as where run_classifier and the Transformer's train.py fix
float16 in code), records in file order, and a learning rate that moves the first steps. The
BERT and Transformer training cells keep their dynamic loss scale; on MindSpore's side the
launcher's ``finite_overflow_check`` makes the cell check the gradients for inf/NaN, which
MindSpore 2.10's CPU build cannot otherwise do (it calls Ascend float-status kernels).
"""
from __future__ import annotations

import os

import numpy as np

from zoo_check import write_mindrecord, write_tfrecord
from zoo_parity import ParityEntry

__all__ = ["NLP_PARITY_ENTRIES"]

_BERT_SEQ, _BERT_PREDS, _BERT_VOCAB = 16, 4, 100


def _bert_pretrain(root: str, n: int = 40) -> None:
    # run_pretrain.py reads every file of data_dir whose name holds "tfrecord"; 40 records are 20
    # steps at batch 2.
    write_tfrecord(os.path.join(root, "pretrain", "part-0.tfrecord"), {
        "input_ids": ("int", _BERT_SEQ, _BERT_VOCAB), "input_mask": ("ones", _BERT_SEQ, 2),
        "segment_ids": ("int", _BERT_SEQ, 2), "next_sentence_labels": ("int", 1, 2),
        "masked_lm_positions": ("int", _BERT_PREDS, _BERT_SEQ), "masked_lm_ids": ("int", _BERT_PREDS, _BERT_VOCAB),
        "masked_lm_weights": ("float_ones", _BERT_PREDS, 1)}, n=n)


def _bert_classifier(root: str, n: int = 40) -> None:
    spec = {"input_ids": ("int", _BERT_SEQ, _BERT_VOCAB), "input_mask": ("ones", _BERT_SEQ, 2),
            "segment_ids": ("int", _BERT_SEQ, 2), "label_ids": ("int", 1, 2)}
    write_tfrecord(os.path.join(root, "train.tfrecord"), spec, n=n)
    write_tfrecord(os.path.join(root, "eval.tfrecord"), spec, n=4, seed=1)


def _transformer(root: str, n: int = 40, seq: int = 16, vocab: int = 100) -> None:
    # create_data.py's bucket file for bucket length `seq`: <data_path>_<seq>_00, all masks 1.
    rng = np.random.default_rng(0)
    names = ["source_sos_ids", "source_sos_mask", "source_eos_ids", "source_eos_mask",
             "target_sos_ids", "target_sos_mask", "target_eos_ids", "target_eos_mask"]
    rows = [{name: np.ones(seq, dtype=np.int64) if name.endswith("mask")
             else rng.integers(1, vocab, size=seq).astype(np.int64) for name in names} for _ in range(n)]
    write_mindrecord(os.path.join(root, f"ende-mindrecord_{seq}_00"),
                     {name: {"type": "int64", "shape": [-1]} for name in names}, rows)


NLP_PARITY_ENTRIES: list[ParityEntry] = [
    ParityEntry("bert-pretrain", "bert-pretrain", batch=2, data=_bert_pretrain,
                overrides={"batch_size": 2, "base_batch_size": 2, "load_checkpoint_path": "{init}",
                           "enable_save_ckpt": "false", "enable_lossscale": "true", "optimizer": "AdamWeightDecay",
                           "AdamWeightDecay.learning_rate": 0.001, "AdamWeightDecay.warmup_steps": 1,
                           "base_net_cfg.hidden_dropout_prob": 0.0,
                           "base_net_cfg.attention_probs_dropout_prob": 0.0},
                hooks={"loss_monitor": True, "finite_overflow_check": True}, ckpt_option=True,
                turned_off="dropout (config base_net_cfg.hidden_dropout_prob and attention_probs_dropout_prob: "
                           "0.0); float16 compute (config base_net_cfg.compute_type: mstype.float32); shuffle "
                           "(config do_shuffle: 'false'); data sink (config enable_data_sink: 'false'); "
                           "optimizer Lamb -> AdamWeightDecay (config optimizer; MindSpore's CPU build has no Lamb "
                           "kernel), learning rate 1e-3 after 1 warmup step (config; 3e-5 after 10000 barely "
                           "moves); the dynamic loss scale kept (enable_lossscale 'true', loss_scale_value 65536 "
                           "in both), its overflow check on MindSpore's side made the gradient finiteness check "
                           "tfspore does (launcher hook; MindSpore 2.10's CPU build would call Ascend "
                           "float-status kernels it lacks); per-step LossMonitor(1) added (the script's "
                           "LossCallBack prints the outputs tuple); init weights through the script's "
                           "load_checkpoint_path option"),
    # do_train raises on an empty load_pretrain_checkpoint_path, so the run that writes init.ckpt keeps
    # the option too (init_overrides), and the missing_init_empty hook loads nothing from the file
    # not yet written; init.ckpt, saved from the training cell, holds BertCLS's head too.
    ParityEntry("bert-classifier", "bert-classifier", batch=2, data=_bert_classifier,
                overrides={"train_batch_size": 2, "load_pretrain_checkpoint_path": "{init}",
                           "do_eval": "false", "train_data_shuffle": "false",
                           "optimizer_cfg.AdamWeightDecay.learning_rate": 0.001,
                           "bert_net_cfg.hidden_dropout_prob": 0.0,
                           "bert_net_cfg.attention_probs_dropout_prob": 0.0},
                init_overrides={"load_pretrain_checkpoint_path": "{init}"},
                hooks={"no_sink": True, "no_dropout": True, "loss_monitor": True, "missing_init_empty": True,
                       "force_attr": [["src.model_utils.config", "bert_net_cfg.compute_type", "mstype.float32"]]},
                ckpt_option=True,
                turned_off="dropout (config bert_net_cfg.hidden_dropout_prob and attention_probs_dropout_prob: "
                           "0.0; the classifier head's nn.Dropout(p=0.1), hard-coded in BertCLS: launcher hook); "
                           "float16 compute (src/model_utils/config.py sets bert_net_cfg.compute_type to "
                           "float16 for run_classifier whatever the yaml says: launcher hook sets it to "
                           "float32); shuffle (config train_data_shuffle: 'false'); sink mode "
                           "(dataset_sink_mode=True in do_train: launcher hook); per-step LossMonitor(1) added "
                           "(the script's LossCallBack prints the outputs); learning rate 1e-3 (config; 2e-5 "
                           "barely moves 5 steps); init weights through the script's "
                           "load_pretrain_checkpoint_path option (MindSpore's init.ckpt holds the whole BertCLS, "
                           "the classifier head included, and do_train loads it into the whole network)"),
    ParityEntry("transformer", "transformer-train", batch=2, data=_transformer,
                overrides={"batch_size": 2, "checkpoint_path": "{init}", "do_shuffle": "false",
                           "enable_save_ckpt": "false", "hidden_dropout_prob": 0.0,
                           "attention_probs_dropout_prob": 0.0},
                hooks={"no_shuffle": True, "loss_monitor": True, "finite_overflow_check": True,
                       "force_attr": [["src.model_utils.config", "config.compute_type", "mstype.float32"],
                                      ["src.model_utils.config", "config.lr_schedule",
                                       {"learning_rate": 2.0, "warmup_steps": 100, "start_decay_step": 100,
                                        "min_lr": 0.0}]]},
                ckpt_option=True,
                turned_off="dropout (config hidden_dropout_prob and attention_probs_dropout_prob: 0.0); float16 "
                           "compute (train.py sets config.compute_type = float16 at import whatever the yaml "
                           "says: launcher hook pins it to float32); shuffle (config do_shuffle: 'false' for the "
                           "MindRecord source; the batches' ds.shuffle(dataset size), no flag: launcher hook); "
                           "learning-rate warmup (train.py sets lr_schedule at import, warmup over 8000 steps: "
                           "launcher hook pins warmup_steps and start_decay_step to 100, lr 1.8e-4 * step); "
                           "per-step LossMonitor(1) added (the script's LossCallBack prints the outputs tuple); "
                           "the dynamic loss scale kept (enable_lossscale 'true', init_loss_scale_value 1024 in "
                           "both), its overflow check on MindSpore's side made the gradient finiteness check "
                           "tfspore does (launcher hook, as for bert-pretrain); init weights through the "
                           "script's checkpoint_path option"),
    # TextCNN's checkpoint option cannot name a file: train.py also saves its checkpoints into
    # os.path.join(output_path, checkpoint_path), the folder pre_trained loads from.
    ParityEntry("textcnn", "textcnn-mr-train", batch=8,
                overrides={"batch_size": 8, "epoch_size": 1},
                hooks={"no_dropout": True},
                turned_off="dropout (nn.Dropout(p=0.5), hard-coded in TextCNN: launcher hook); no shuffle to turn "
                           "off (GeneratorDataset(shuffle=False); the train/test split's random.shuffle is seeded "
                           "by set_seed(1) through the dataset seed, the same in both); the script's own "
                           "LossMonitor prints every step; non-sink already on CPU; init weights loaded by the "
                           "launcher at Model() (the script's pre_trained/checkpoint_path option names the folder "
                           "it also saves its checkpoints into, not a file)"),
]
