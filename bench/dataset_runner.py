"""Dataset pipelines side by side: tfspore, real MindSpore 2.10 and a hand-written tf.data twin.

Five pipelines, each written once against MindSpore's dataset API (``bench/_dataset_pipelines.py``)
and built with ``tfspore.dataset`` here and with ``mindspore.dataset`` in a child process
(``--ms_python``, default ``.venv-msds/bin/python``: MindSpore 2.10's dataset module needs
numpy < 2), beside the same work written directly in ``tf.data``:

* ``mnist``: MnistDataset (idx files) + Rescale, Normalize, HWC2CHW; TypeCast; batch 32.
* ``cifar10``: Cifar10Dataset (.bin) + RandomCrop(32, padding=4), RandomHorizontalFlip, Normalize,
  HWC2CHW; batch 32.
* ``imagefolder``: ImageFolderDataset of 1,024 JPEGs 96x128 + Decode, RandomCrop(80, padding=4),
  RandomHorizontalFlip, Resize(64), Rescale, Normalize, HWC2CHW; batch 32, num_parallel_workers=2.
* ``generator``: GeneratorDataset + a GIL-bound Python map, num_parallel_workers=2,
  python_multiprocessing=True; batch 32.
* ``mindrecord_text``: MindDataset of sentences + BertTokenizer, Lookup, PadEnd(64); batch 32 (the
  twin reads the same sentences from memory and tokenizes with tensorflow_text's BertTokenizer).

Every framework keeps one iterator per pipeline (``create_tuple_iterator(num_epochs=...,
output_numpy=True)``; the twin iterates its ``tf.data.Dataset`` and converts to numpy), and one
*run* pulls whole epochs from it, timed from its 17th batch on (MindSpore's engine prefetches
into its queues between runs; this measures all three in their steady state). Runs are interleaved: for each round, for each pipeline, the
three frameworks one after the other (the order rotates each round). Round 0 is a warm-up; the
table shows samples per second, the median over the other rounds.

Example:
    .venv/bin/python bench/dataset_runner.py --repeats 3
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PIPELINES = ["mnist", "cifar10", "imagefolder", "generator", "mindrecord_text"]
# Epochs one timed run pulls: enough batches that what a pipeline prepared in the background
# between runs (its buffers; MindSpore's queues) is a small share of the run (imagefolder: 32
# batches an epoch, so 8 epochs; with 2 its last rounds measured buffered batches, up to 52k/s).
EPOCHS_PER_RUN = {"mnist": 1, "cifar10": 1, "imagefolder": 8, "generator": 2, "mindrecord_text": 1}
FRAMEWORKS = ["tfspore", "mindspore", "tf.data"]


LEAD_BATCHES = 16


def _timed_run(iterator, epochs: int):
    """Pull `epochs` passes from a MindSpore-style iterator (each pass ends with StopIteration).

    The first ``LEAD_BATCHES`` batches are not timed: MindSpore's pipeline keeps filling its
    queues in the background between runs (tf.data starts each pass afresh), so the clock starts
    once those queues are drained and every framework is measured in its steady state.

    Returns:
        (rows, seconds) of the timed part.
    """
    rows, seen, start = 0, 0, None
    for _ in range(epochs):
        for row in iterator:
            seen += 1
            if seen == LEAD_BATCHES:
                start = time.perf_counter()
            elif seen > LEAD_BATCHES:
                rows += len(row[0])
    return rows, time.perf_counter() - start


# ------------------------------------------------------------------------------------- MindSpore child
def ms_worker(data_dir: str) -> None:
    """Serve 'build NAME EPOCHS' / 'run NAME' / 'quit' on stdin; answer one JSON line per command."""
    out = sys.stdout
    sys.stdout = sys.stderr  # MindSpore's own prints must not reach the protocol
    sys.path.insert(0, HERE)
    import _dataset_pipelines as pipes  # pylint: disable=import-outside-toplevel
    import mindspore.dataset as ds  # pylint: disable=import-outside-toplevel
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    from mindspore.dataset import text, transforms, vision  # pylint: disable=import-outside-toplevel
    api = pipes.Api(ds=ds, vision=vision, transforms=transforms, text=text, mstype=mstype)
    iterators = {}
    for line in sys.stdin:
        parts = line.split()
        if not parts or parts[0] == "quit":
            break
        try:
            if parts[0] == "build":
                name, epochs = parts[1], int(parts[2])
                iterators[name] = pipes.build(api, name, data_dir).create_tuple_iterator(num_epochs=epochs,
                                                                                          output_numpy=True)
                reply = {"ok": True}
            else:
                name = parts[1]
                rows, seconds = _timed_run(iterators[name], EPOCHS_PER_RUN[name])
                reply = {"rows": rows, "seconds": seconds}
        except Exception as exc:  # pylint: disable=broad-except
            reply = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        out.write(json.dumps(reply) + "\n")
        out.flush()


class MindSporeSide:
    """The MindSpore child process (None answers when it is unavailable)."""

    def __init__(self, python: str, data_dir: str):
        self.error = None
        self.proc = None
        if not os.path.exists(python):
            self.error = f"{python} not found"
            return
        env = dict(os.environ, GLOG_v="3", PYTHONPATH=HERE)
        self.proc = subprocess.Popen([python, os.path.abspath(__file__), "--ms_worker", data_dir],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env)

    def ask(self, command: str) -> dict:
        if self.proc is None:
            return {"error": self.error}
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.error = "the MindSpore process ended"
            self.proc = None
            return {"error": self.error}
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=60)


# ------------------------------------------------------------------------------------- tf.data twins
def twin(name: str, data_dir: str, data: dict):
    """The pipeline `name` written directly in tf.data (per-element map, batch, prefetch)."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    import tensorflow as tf  # pylint: disable=import-outside-toplevel
    import _dataset_pipelines as pipes  # pylint: disable=import-outside-toplevel
    auto = tf.data.AUTOTUNE
    if name == "mnist":
        with open(os.path.join(data_dir, "mnist", "train-images-idx3-ubyte"), "rb") as f:
            images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 28, 28, 1)
        with open(os.path.join(data_dir, "mnist", "train-labels-idx1-ubyte"), "rb") as f:
            labels = np.frombuffer(f.read(), np.uint8, offset=8).astype(np.uint32)

        def prep(image, label):
            x = (tf.cast(image, tf.float32) * (1.0 / 255.0) - 0.1307) / 0.3081
            return tf.transpose(x, [2, 0, 1]), tf.cast(label, tf.int32)

        d = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(len(images)).map(prep, auto)
    elif name == "cifar10":
        records = np.fromfile(os.path.join(data_dir, "cifar", "data_batch_1.bin"), np.uint8).reshape(-1, 3073)
        images = np.ascontiguousarray(records[:, 1:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        labels = records[:, 0].astype(np.uint32)
        mean, std = tf.constant(pipes.CIFAR_MEAN), tf.constant(pipes.CIFAR_STD)

        def prep(image, label):
            x = tf.image.random_crop(tf.pad(image, [[4, 4], [4, 4], [0, 0]]), [32, 32, 3])
            x = tf.image.random_flip_left_right(x)
            x = (tf.cast(x, tf.float32) - mean) / std
            return tf.transpose(x, [2, 0, 1]), tf.cast(label, tf.int32)

        d = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(len(images)).map(prep, auto)
    elif name == "imagefolder":
        root = os.path.join(data_dir, "folder")
        paths, labels = [], []
        for k, cls in enumerate(sorted(os.listdir(root))):
            for f in sorted(os.listdir(os.path.join(root, cls))):
                paths.append(os.path.join(root, cls, f))
                labels.append(k)
        mean, std = tf.constant(pipes.IMAGENET_MEAN), tf.constant(pipes.IMAGENET_STD)

        def prep(path, label):
            x = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)
            x = tf.image.random_crop(tf.pad(x, [[4, 4], [4, 4], [0, 0]]), [80, 80, 3])
            x = tf.image.random_flip_left_right(x)
            x = tf.image.resize(x, [64, 64])
            x = (x * (1.0 / 255.0) - mean) / std
            return tf.transpose(x, [2, 0, 1]), label

        d = tf.data.Dataset.from_tensor_slices((paths, labels)).shuffle(len(paths)).map(prep, auto)
    elif name == "generator":
        source = pipes.GeneratorSource()

        def getitem(i):
            image, label = source[i]
            return image, label

        def load(i):
            image, label = tf.numpy_function(getitem, [i], [tf.uint8, tf.int32])
            return tf.numpy_function(pipes.gil_augment, [image], tf.float32), label

        d = tf.data.Dataset.range(len(source)).shuffle(len(source)).map(load, auto)
    elif name == "mindrecord_text":
        import tensorflow_text as tf_text  # pylint: disable=import-outside-toplevel
        tokenizer = tf_text.BertTokenizer(os.path.join(data_dir, "vocab.txt"), token_out_type=tf.int32,
                                          lower_case=True, unknown_token="[UNK]")

        def prep(text, label):
            ids = tokenizer.tokenize(text).flat_values[:pipes.TEXT_LEN]
            return tf.pad(ids, [[0, pipes.TEXT_LEN - tf.shape(ids)[0]]]), label

        texts = data["texts"]
        d = tf.data.Dataset.from_tensor_slices((texts, data["labels"])).shuffle(len(texts)).map(prep, auto)
    else:
        raise ValueError(name)
    return d.batch(pipes.BATCH, drop_remainder=True).prefetch(auto)


class TwinIterator:
    """Epochs of a tf.data pipeline as numpy rows, like ``create_tuple_iterator(output_numpy=True)``."""

    def __init__(self, dataset):
        self.dataset = dataset

    def __iter__(self):
        for batch in self.dataset:
            yield [t.numpy() for t in batch]


# ------------------------------------------------------------------------------------- main
def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds (after one warm-up round)")
    parser.add_argument("--pipelines", default=",".join(PIPELINES))
    parser.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    parser.add_argument("--ms_python", default=os.path.join(ROOT, ".venv-msds", "bin", "python"))
    parser.add_argument("--mnist_rows", type=int, default=30000)
    parser.add_argument("--ms_worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args()
    if args.ms_worker:
        ms_worker(args.ms_worker)
        return

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    sys.path.insert(0, ROOT)
    sys.path.insert(0, HERE)
    import _dataset_pipelines as pipes  # pylint: disable=import-outside-toplevel
    import tfspore.dataset as ds  # pylint: disable=import-outside-toplevel
    from tfspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    from tfspore.dataset import text, transforms, vision  # pylint: disable=import-outside-toplevel
    from tfspore.mindrecord import FileWriter  # pylint: disable=import-outside-toplevel

    names = [p for p in args.pipelines.split(",") if p]
    frameworks = [f for f in args.frameworks.split(",") if f]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_start = _load()
    total_epochs = (args.repeats + 1) * max(EPOCHS_PER_RUN.values())
    api = pipes.Api(ds=ds, vision=vision, transforms=transforms, text=text, mstype=mstype)
    with tempfile.TemporaryDirectory() as data_dir:
        data = pipes.write_data(data_dir, mnist_rows=args.mnist_rows)
        pipes.write_mindrecord(FileWriter, data_dir, data["texts"], data["labels"])
        ms = MindSporeSide(args.ms_python, data_dir) if "mindspore" in frameworks else None
        iterators, errors = {}, {}
        for name in names:
            try:
                if "tfspore" in frameworks:
                    iterators[("tfspore", name)] = pipes.build(api, name, data_dir).create_tuple_iterator(
                        num_epochs=total_epochs, output_numpy=True)
            except Exception as exc:  # pylint: disable=broad-except
                errors[("tfspore", name)] = f"{type(exc).__name__}: {exc}"[:500]
            try:
                if "tf.data" in frameworks:
                    iterators[("tf.data", name)] = TwinIterator(twin(name, data_dir, data))
            except Exception as exc:  # pylint: disable=broad-except  # e.g. tensorflow_text not installed
                errors[("tf.data", name)] = f"{type(exc).__name__}: {exc}"[:500]
            if ms is not None:
                reply = ms.ask(f"build {name} {total_epochs}")
                if "error" in reply:
                    errors[("mindspore", name)] = reply["error"]
        rates = {}
        for rnd in range(args.repeats + 1):
            order = frameworks[rnd % len(frameworks):] + frameworks[:rnd % len(frameworks)]
            for name in names:
                for fw in order:
                    if (fw, name) in errors:
                        continue
                    if fw == "mindspore":
                        reply = ms.ask(f"run {name}")
                    else:
                        try:
                            rows, seconds = _timed_run(iterators[(fw, name)], EPOCHS_PER_RUN[name])
                            reply = {"rows": rows, "seconds": seconds}
                        except Exception as exc:  # pylint: disable=broad-except
                            reply = {"error": f"{type(exc).__name__}: {exc}"[:500]}
                    if "error" in reply:
                        errors[(fw, name)] = reply["error"]
                        continue
                    rows, seconds = reply["rows"], reply["seconds"]
                    if rnd > 0:
                        rates.setdefault((fw, name), []).append(rows / seconds)
                    print(f"round {rnd} {name:16s} {fw:10s} {rows:6d} rows {rows / seconds:9.0f} samples/s",
                          file=sys.stderr, flush=True)
        if ms is not None:
            ms.close()
    load_end = _load()

    print(f"Dataset pipelines, {started}, load average at start {load_start}, at end {load_end}; "
          f"samples/s, median of {args.repeats} interleaved runs (after a warm-up run)\n")
    print("| pipeline | tfspore | MindSpore 2.10 | tf.data twin | tfspore / MindSpore | tfspore / twin | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    record = {"bench": "dataset_runner", "started": started, "load": [load_start, load_end], "rows": []}
    for name in names:
        med = {fw: statistics.median(rates[(fw, name)]) if (fw, name) in rates else None for fw in FRAMEWORKS}
        ours, theirs, twin_rate = med["tfspore"], med["mindspore"], med["tf.data"]
        r_ms = ours / theirs if ours and theirs else None
        r_tw = ours / twin_rate if ours and twin_rate else None
        met = (r_ms is None or r_ms >= 1.0) and (r_tw is None or r_tw >= 0.9)
        cells = [f"{x:,.0f}" if x else ("error" if (fw, name) in errors else "-")
                 for fw, x in zip(FRAMEWORKS, (ours, theirs, twin_rate))]
        print(f"| {name} | {cells[0]} | {cells[1]} | {cells[2]} | "
              f"{'-' if r_ms is None else f'{r_ms:.2f}'} | {'-' if r_tw is None else f'{r_tw:.2f}'} | "
              f"{'met' if met else 'not met'} |")
        record["rows"].append({"pipeline": name, **{fw: med[fw] for fw in FRAMEWORKS},
                               "all": {fw: rates.get((fw, name)) for fw in FRAMEWORKS}})
    print()
    for name in names:
        print(f"* {name}: {pipes.DESCRIPTIONS[name]}")
    for (fw, name), err in errors.items():
        print(f"* error: {fw} / {name}: {err}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
    print(json.dumps(record))


if __name__ == "__main__":
    main()
