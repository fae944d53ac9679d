"""The benchmark workloads and their synthetic data, shared by every framework (numpy only).

Each workload fixes the batch size, the input shape in MindSpore's layout (NCHW images, int32
token ids), the number of classes and a default number of steps per epoch. The data is drawn
from one seeded generator, so every framework trains on the same numbers (Keras and the
hand-written TF loop get the images transposed to NHWC, the layout a Keras user feeds).

This module must import in MindSpore's own environment too (numpy < 2, no TensorFlow).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

__all__ = ["Workload", "WORKLOADS", "make_data", "summarize", "LR", "MOMENTUM", "INIT_STDDEV"]

LR = 0.01
MOMENTUM = 0.9
INIT_STDDEV = 0.02


@dataclass(frozen=True)
class Workload:
    """One benchmark workload.

    Attributes:
        name: the key used on the command line.
        batch: the batch size.
        shape: the shape of one input sample, MindSpore layout.
        steps: the default number of steps per epoch.
        tokens: whether the input is int32 token ids (else float32 images).
        description: one line for the results table.
        network: the network's key in the model modules (default: ``name``).
        amp_level: the ``amp_level`` tfspore and MindSpore train with (``Model(..., amp_level=...)``;
            ``"O2"`` as VGG16's train.py passes it: float16 BatchNorm, no loss-scale manager). Keras
            and the hand-written loop always train in float32.
    """

    name: str
    batch: int
    shape: tuple
    steps: int
    tokens: bool = False
    description: str = ""
    network: str = ""
    amp_level: str = "O0"


NUM_CLASSES = 10
VOCAB = 1000

WORKLOADS = {
    "mlp": Workload("mlp", 64, (1, 28, 28), 200,
                    description="MLP 784-128-128-10, ReLU, input 1x28x28, batch 64"),
    "lenet": Workload("lenet", 32, (1, 32, 32), 100,
                      description="LeNet-5 (conv 6/16 5x5 valid, max-pool, dense 120-84-10), input 1x32x32, batch 32"),
    "resnet": Workload("resnet", 32, (3, 32, 32), 30,
                       description="ResNet (3x3 stem 16, 3 basic blocks 16/32/64 with BatchNorm, global avg pool), "
                                   "input 3x32x32, batch 32"),
    "transformer": Workload("transformer", 32, (32,), 60, tokens=True,
                            description="Transformer encoder (embedding 1000x64, 2 post-norm layers, 4 heads, FFN 128, "
                                        "mean pool, dense 10), 32 tokens, batch 32"),
    "convnet": Workload("convnet", 32, (3, 32, 32), 20,
                        description="VGG-style conv net (2x conv3x3-BN-ReLU 32, max-pool, 2x conv3x3-BN-ReLU 64, "
                                    "max-pool, dense 4096-128-10), input 3x32x32, batch 32"),
    "convnet_o2": Workload("convnet_o2", 32, (3, 32, 32), 20, network="convnet", amp_level="O2",
                           description="the convnet under amp_level='O2' (float16; tfspore and MindSpore only, "
                                       "Keras and the TF loop in float32), input 3x32x32, batch 32"),
}


def make_data(workload: Workload, steps: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``steps`` batches of synthetic inputs (MindSpore layout) and int32 labels.

    Args:
        workload: the workload.
        steps: the number of batches.
        seed: the generator seed.

    Returns:
        ``(x, y)`` with ``steps * batch`` samples.
    """
    rng = np.random.default_rng(seed)
    n = steps * workload.batch
    if workload.tokens:
        x = rng.integers(0, VOCAB, (n,) + workload.shape).astype(np.int32)
    else:
        x = rng.standard_normal((n,) + workload.shape).astype(np.float32)
    y = rng.integers(0, NUM_CLASSES, n).astype(np.int32)
    return x, y


def to_nhwc(x: np.ndarray) -> np.ndarray:
    """NCHW images to NHWC (token ids pass through)."""
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1)) if x.ndim == 4 else x


def summarize(epoch_ends: list, steps: int) -> dict:
    """First-epoch time and steady-state time per step from the epoch end times.

    Args:
        epoch_ends: seconds since the start of the train call at the end of each epoch.
        steps: steps per epoch.

    Returns:
        ``first_epoch_s`` (the first epoch, trace and compile included) and ``ms_per_step``
        (the median over the later epochs).
    """
    durations = [b - a for a, b in zip(epoch_ends, epoch_ends[1:])]
    return {
        "first_epoch_s": epoch_ends[0],
        "ms_per_step": statistics.median(durations) / steps * 1000.0 if durations else float("nan"),
        "epoch_s": durations,
    }
