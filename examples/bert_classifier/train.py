"""Fine-tunes a BERT-style encoder for text classification with tfspore, as a MindSpore script does.

The network is ``examples/models/bert.py``'s ``BertClassifier`` (word / position / token-type
embeddings, encoder layers of ``nn.Dense`` / ``ops.BatchMatMul`` / ``nn.Softmax`` / ``nn.GELU``,
a Tanh pooler and a Dense classifier, written against ``import mindspore``), trained with
``Model(network_with_loss, optimizer=AdamWeightDecay(...), amp_level=...).train`` as the zoo's
BERT fine-tuning does (the loss cell is part of the network, the dataset gives ``input_ids``,
``token_type_ids``, ``attention_mask`` and ``label``). ``--init_ckpt`` loads pre-trained weights
(names as the zoo's BERT checkpoints: ``bert.embeddings.word_embeddings.embedding_table``, ...);
without it the encoder starts from its initialisation.

The text: ``--data_dir`` with GLUE SST-2's ``train.tsv`` and ``dev.tsv`` (a header line, then
``sentence<TAB>label``), or a tensorflow-datasets dataset with (text, label) pairs
(``--tfds_name imdb_reviews``), or by default an embedded synthetic sentiment set: sentences
generated from small word lists, 1 to 3 positive (label 1) or negative (label 0) words among
neutral ones (no real text set ships with the repository). Words are lower-cased and split on
whitespace; the vocabulary is the
training split's ``--vocab_size`` most frequent words plus ``[PAD]``, ``[UNK]``, ``[CLS]`` and
``[SEP]``.

Example:
    python examples/bert_classifier/train.py --epochs 2 --mode pynative
"""
import collections
import csv
import os
import sys
import time

from absl import flags
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import flags as example_flags  # noqa: E402  (examples/common)

FLAGS = flags.FLAGS
example_flags.define_flags(epochs=3, batch_size=16, data_help="Directory with GLUE SST-2's train.tsv and dev.tsv. "
                           "Default: the embedded synthetic sentiment set.")
flags.DEFINE_integer("seq_length", 16, "Tokens per sequence, [CLS] and [SEP] included.", lower_bound=3)
flags.DEFINE_integer("vocab_size", 2000, "Most frequent training words kept in the vocabulary.", lower_bound=1)
flags.DEFINE_integer("hidden_size", 32, "BERT hidden size.", lower_bound=1)
flags.DEFINE_integer("num_layers", 2, "BERT encoder layers.", lower_bound=1)
flags.DEFINE_integer("num_heads", 4, "Attention heads (divide --hidden_size).", lower_bound=1)
flags.DEFINE_float("lr", 1e-3, "AdamWeightDecay's learning rate.", lower_bound=0.0)
flags.DEFINE_string("init_ckpt", None, "A pre-trained BERT checkpoint to start from (the zoo's parameter names).")
flags.DEFINE_integer("synthetic_size", 512, "Training sentences of the embedded synthetic set (a quarter as many "
                     "for the test).", lower_bound=8)

_POSITIVE = "good great excellent wonderful superb lovely brilliant enjoyable delightful fine".split()
_NEGATIVE = "bad awful terrible poor boring dull horrible weak annoying dreadful".split()
_NEUTRAL = "the movie film plot story actors was is and it a this with quite really very".split()
_SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]


def synthetic_sentences(n, seed):
    """``n`` generated (sentence, label) pairs: 1 to 3 positive (label 1) or negative (label 0) words among
    2 to 7 neutral ones."""
    rng = np.random.RandomState(seed)
    rows = []
    for _ in range(n):
        label = int(rng.randint(0, 2))
        words = list(rng.choice(_POSITIVE if label else _NEGATIVE, rng.randint(1, 4)))
        words += list(rng.choice(_NEUTRAL, rng.randint(2, 8)))
        rng.shuffle(words)
        rows.append((" ".join(words), label))
    return rows


def _read_tsv(path):
    if not os.path.isfile(path):
        raise example_flags.ExampleError(f"--data_dir {FLAGS.data_dir!r} has no {os.path.basename(path)} (GLUE "
                                         "SST-2 layout: sentence<TAB>label with a header line).")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header is None or "sentence" not in header or "label" not in header:
            raise example_flags.ExampleError(f"{path}: the first line must name the columns 'sentence' and 'label'.")
        s, l = header.index("sentence"), header.index("label")
        return [(row[s], int(row[l])) for row in reader if len(row) > max(s, l)]


def _read_tfds(split):
    data = example_flags.tfds_dataset(split, example_flags.Distribution(0, 1, False), shuffle=False)
    rows = []
    for text, label in data.create_tuple_iterator(output_numpy=True):
        text = text.item() if hasattr(text, "item") else text
        rows.append((text.decode("utf-8") if isinstance(text, bytes) else str(text), int(label)))
    return rows


def load_text():
    """(train rows, test rows): lists of (sentence, label)."""
    if FLAGS.tfds_name:
        return _read_tfds("train"), _read_tfds("test")
    if FLAGS.data_dir:
        example_flags.require_dir(FLAGS.data_dir, "GLUE SST-2's train.tsv and dev.tsv")
        return _read_tsv(os.path.join(FLAGS.data_dir, "train.tsv")), _read_tsv(os.path.join(FLAGS.data_dir, "dev.tsv"))
    return synthetic_sentences(FLAGS.synthetic_size, FLAGS.seed), synthetic_sentences(FLAGS.synthetic_size // 4,
                                                                                     FLAGS.seed + 1)


def build_vocab(rows, size):
    counts = collections.Counter(word for text, _ in rows for word in text.lower().split())
    return {word: i for i, word in enumerate(_SPECIAL + [w for w, _ in counts.most_common(size)])}


def encode(rows, vocab, seq_length):
    """input_ids, token_type_ids, attention_mask (int32 (N, seq_length)) and labels (int32 (N,))."""
    ids = np.zeros((len(rows), seq_length), np.int32)
    mask = np.zeros((len(rows), seq_length), np.int32)
    for i, (text, _) in enumerate(rows):
        tokens = [vocab.get(w, 1) for w in text.lower().split()][:seq_length - 2]
        tokens = [2] + tokens + [3]
        ids[i, :len(tokens)] = tokens
        mask[i, :len(tokens)] = 1
    labels = np.array([label for _, label in rows], np.int32)
    return ids, np.zeros_like(ids), mask, labels


def main(argv):
    del argv
    dist = example_flags.setup()
    if FLAGS.hidden_size % FLAGS.num_heads:
        raise example_flags.ExampleError(f"--hidden_size {FLAGS.hidden_size} is not a multiple of --num_heads "
                                         f"{FLAGS.num_heads}.")

    import tfspore as ms
    import tfspore.dataset as ds
    from tfspore import nn
    from tfspore.compat import alias_mindspore
    from tfspore.train import Model
    from tfspore.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint, SummaryCollector, TimeMonitor

    alias_mindspore()  # examples/models/bert.py is written against `import mindspore`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models"))
    import bert  # pylint: disable=import-outside-toplevel

    train_rows, test_rows = load_text()
    vocab = build_vocab(train_rows, FLAGS.vocab_size)
    num_labels = max(label for _, label in train_rows + test_rows) + 1
    columns = ["input_ids", "token_type_ids", "attention_mask", "label"]
    train_arrays = encode(train_rows, vocab, FLAGS.seq_length)
    shard = {"num_shards": dist.group_size, "shard_id": dist.rank} if dist.shard else {}
    train_ds = ds.NumpySlicesDataset(dict(zip(columns, train_arrays)), shuffle=True, **shard)
    train_ds = train_ds.batch(FLAGS.batch_size, drop_remainder=True)
    steps = train_ds.get_dataset_size()
    if steps == 0:
        raise example_flags.ExampleError(f"--batch_size {FLAGS.batch_size} is larger than the training rows of "
                                         "this rank.")
    print(f"rank {dist.rank} of {dist.group_size}: {len(train_rows)} training and {len(test_rows)} test sentences, "
          f"vocabulary {len(vocab)}, {num_labels} labels, {steps} steps per epoch", flush=True)

    config = bert.BertConfig(vocab_size=len(vocab), hidden_size=FLAGS.hidden_size,
                             num_hidden_layers=FLAGS.num_layers, num_attention_heads=FLAGS.num_heads,
                             intermediate_size=4 * FLAGS.hidden_size, max_position_embeddings=FLAGS.seq_length)
    network = bert.BertClassifier(config, num_labels=num_labels)
    if FLAGS.init_ckpt:
        if not os.path.isfile(FLAGS.init_ckpt):
            raise example_flags.ExampleError(f"--init_ckpt {FLAGS.init_ckpt!r} is not a file.")
        not_loaded, _ = ms.load_param_into_net(network, ms.load_checkpoint(FLAGS.init_ckpt))
        print(f"loaded {FLAGS.init_ckpt} ({len(not_loaded)} parameters kept their initialisation)", flush=True)

    class ClassifierWithLoss(nn.Cell):
        """The classifier and its cross-entropy, as the zoo's BERT fine-tuning cell."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

        def construct(self, input_ids, token_type_ids, attention_mask, label):
            return self.loss(self.net(input_ids, token_type_ids, attention_mask), label)

    optimizer = nn.AdamWeightDecay(network.trainable_params(), learning_rate=FLAGS.lr, weight_decay=0.01)
    model = Model(ClassifierWithLoss(network), optimizer=optimizer, amp_level=FLAGS.amp_level)
    callbacks = [TimeMonitor(steps), LossMonitor(1 if FLAGS.sink_size else steps)]
    if FLAGS.ckpt_dir:
        ckpt_dir = os.path.join(FLAGS.ckpt_dir, f"ckpt_{dist.rank}") if dist.group_size > 1 else FLAGS.ckpt_dir
        callbacks.append(ModelCheckpoint(prefix="bert_classifier", directory=ckpt_dir,
                                         config=CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=1)))
    if FLAGS.summary_dir:
        callbacks.append(SummaryCollector(FLAGS.summary_dir, collect_freq=max(1, steps // 4),
                                          collect_specified_data={"collect_landscape": None}))
    start = time.time()
    model.train(FLAGS.epochs, train_ds, callbacks=callbacks, **example_flags.sink_args())
    print(f"trained {FLAGS.epochs} epoch(s) in {time.time() - start:.1f} s", flush=True)

    network.set_train(False)
    ids, types, mask, labels = encode(test_rows, vocab, FLAGS.seq_length)
    logits = network(ms.Tensor(ids), ms.Tensor(types), ms.Tensor(mask)).asnumpy()
    print(f"test accuracy: {float((logits.argmax(axis=1) == labels).mean()):.4f}", flush=True)


if __name__ == "__main__":
    example_flags.run(main)
