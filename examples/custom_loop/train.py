"""A custom training loop in MindSpore 2.x's style, on tfspore: ``value_and_grad`` or ``TrainOneStepCell``.

Two loops over the same network (a small MLP classifier), loss and optimizer, picked by
``--loop``:

* ``value_and_grad`` (MindSpore's quick start): ``grad_fn = ms.value_and_grad(forward_fn, None,
  optimizer.parameters, has_aux=True)``, a ``train_step`` that applies ``optimizer(grads)``,
  compiled with ``ms.jit`` in GRAPH_MODE;
* ``train_one_step``: ``nn.TrainOneStepCell(nn.WithLossCell(network, loss), optimizer)`` called
  per batch, or per sink of ``--sink_size`` steps through ``DatasetHelper`` and
  ``connect_network_with_dataset`` (dataset sink mode).

The loop prints ``epoch: <n> step: <s>, loss is <loss>`` at each epoch's end, records the loss
with ``SummaryRecord`` (``--summary_dir``), saves ``<ckpt_dir>/mlp.ckpt`` with
``save_checkpoint`` and prints the test accuracy. The data: ``--data_dir`` with ``train.npz`` and
``test.npz`` (arrays ``x`` float32 (N, F) and ``y`` int (N,)), a TFDS dataset of feature vectors
(``--tfds_name iris``), or by default a synthetic set of 3 Gaussian blobs in 8 dimensions. A
custom loop runs on one device here: ``--strategy`` other than ``none`` is refused.

Example:
    python examples/custom_loop/train.py --loop value_and_grad --epochs 3
"""
import os
import sys

from absl import flags
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import flags as example_flags  # noqa: E402  (examples/common)

FLAGS = flags.FLAGS
example_flags.define_flags(epochs=3, batch_size=32, data_help="Directory with train.npz and test.npz (arrays x "
                           "float32 (N, F) and y int (N,)). Default: synthetic Gaussian blobs.")
flags.DEFINE_enum("loop", "value_and_grad", ["value_and_grad", "train_one_step"],
                  "value_and_grad: ms.value_and_grad + optimizer(grads); train_one_step: nn.TrainOneStepCell.")
flags.DEFINE_float("lr", 0.05, "Learning rate of Momentum.", lower_bound=0.0)
flags.DEFINE_integer("hidden", 32, "Width of the hidden layer.", lower_bound=1)


def _blobs(n, seed, classes=3, features=8):
    rng = np.random.RandomState(seed)
    centers = np.random.RandomState(0).randn(classes, features).astype(np.float32) * 2.0
    y = rng.randint(0, classes, n).astype(np.int32)
    x = centers[y] + rng.randn(n, features).astype(np.float32)
    return x, y


def load_arrays():
    """(x_train, y_train), (x_test, y_test) from --data_dir, --tfds_name or the synthetic blobs."""
    if FLAGS.tfds_name:
        dist = example_flags.Distribution(0, 1, False)
        splits = []
        for split in ("train[:80%]", "train[80%:]"):
            rows = list(example_flags.tfds_dataset(split, dist, shuffle=False).create_tuple_iterator(output_numpy=True))
            splits.append((np.stack([r[0] for r in rows]).astype(np.float32), np.array([r[1] for r in rows], np.int32)))
        return splits[0], splits[1]
    if FLAGS.data_dir:
        example_flags.require_dir(FLAGS.data_dir, "train.npz and test.npz")
        splits = []
        for name in ("train.npz", "test.npz"):
            path = os.path.join(FLAGS.data_dir, name)
            if not os.path.isfile(path):
                raise example_flags.ExampleError(f"--data_dir {FLAGS.data_dir!r} has no {name}.")
            with np.load(path) as arrays:
                if "x" not in arrays or "y" not in arrays:
                    raise example_flags.ExampleError(f"{path} must hold arrays 'x' and 'y'.")
                splits.append((arrays["x"].astype(np.float32), arrays["y"].astype(np.int32)))
        return splits[0], splits[1]
    return _blobs(600, FLAGS.seed), _blobs(200, FLAGS.seed + 1)


def main(argv):
    del argv
    if FLAGS.strategy != "none":
        raise example_flags.ExampleError(f"--strategy {FLAGS.strategy}: this custom loop runs on one device; the "
                                         "Model.train examples (lenet, resnet_cifar10, bert_classifier) distribute.")
    if FLAGS.sink_size and FLAGS.loop != "train_one_step":
        raise example_flags.ExampleError("--sink_size needs --loop train_one_step (DatasetHelper sinks a Cell).")
    arrays = load_arrays() if not FLAGS.tfds_name else None  # files fail before TensorFlow loads
    example_flags.setup()

    import tfspore as ms
    import tfspore.dataset as ds
    from tfspore import nn
    from tfspore.train.dataset_helper import DatasetHelper, connect_network_with_dataset
    from tfspore.train.summary import SummaryRecord

    (x_train, y_train), (x_test, y_test) = arrays or load_arrays()
    classes = int(max(y_train.max(), y_test.max())) + 1
    train_ds = ds.NumpySlicesDataset({"x": x_train, "y": y_train}, shuffle=True).batch(FLAGS.batch_size,
                                                                                        drop_remainder=True)
    steps = train_ds.get_dataset_size()
    if steps == 0:
        raise example_flags.ExampleError(f"--batch_size {FLAGS.batch_size} is larger than the {len(x_train)} "
                                         "training rows.")

    network = nn.SequentialCell([nn.Dense(x_train.shape[1], FLAGS.hidden), nn.ReLU(), nn.Dense(FLAGS.hidden, classes)])
    if FLAGS.amp_level != "O0":
        network = ms.amp.auto_mixed_precision(network, FLAGS.amp_level)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(network.trainable_params(), FLAGS.lr, 0.9)

    if FLAGS.loop == "value_and_grad":
        def forward_fn(data, label):
            logits = network(data)
            return loss_fn(logits, label), logits

        grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

        def train_step(data, label):
            (loss, _), grads = grad_fn(data, label)
            optimizer(grads)
            return loss

        if FLAGS.mode == "graph":
            train_step = ms.jit(train_step)
    else:
        train_net = nn.TrainOneStepCell(nn.WithLossCell(network, loss_fn), optimizer)
        train_net.set_train()

        def train_step(data, label):
            return train_net(data, label)

    record = SummaryRecord(FLAGS.summary_dir) if FLAGS.summary_dir else None
    step = 0
    try:
        for epoch in range(1, FLAGS.epochs + 1):
            network.set_train(True)
            if FLAGS.sink_size:
                helper = DatasetHelper(train_ds, dataset_sink_mode=True,
                                       sink_size=FLAGS.sink_size if FLAGS.sink_size > 0 else -1)
                sink_net = connect_network_with_dataset(train_net, helper)
                for inputs in helper:
                    loss = sink_net(*inputs)
                    step += FLAGS.sink_size if FLAGS.sink_size > 0 else steps
            else:
                for data, label in train_ds.create_tuple_iterator(num_epochs=1):
                    loss = train_step(data, label)
                    step += 1
            if record is not None:
                record.add_value("scalar", "loss", loss)
                record.record(step)
            print(f"epoch: {epoch} step: {step}, loss is {float(loss.asnumpy()):.6f}", flush=True)
    finally:
        if record is not None:
            record.close()

    network.set_train(False)
    logits = network(ms.Tensor(x_test)).asnumpy()
    accuracy = float((logits.argmax(axis=1) == y_test).mean())
    if FLAGS.ckpt_dir:
        os.makedirs(FLAGS.ckpt_dir, exist_ok=True)
        path = os.path.join(FLAGS.ckpt_dir, "mlp.ckpt")
        ms.save_checkpoint(network, path)
        print(f"saved {path}", flush=True)
    print(f"test accuracy: {accuracy:.4f}", flush=True)


if __name__ == "__main__":
    example_flags.run(main)
