"""Runs one zoo training script with the few hooks a loss comparison needs (used by zoo_parity.py).

Usage (real MindSpore)::

    ZOO_PARITY='{"load_init": "init.ckpt"}' python tools/_zoo_parity_launch.py SCRIPT ARGS...

and under tfspore::

    ZOO_PARITY='{"load_init": "init.ckpt"}' python -m tfspore run tools/_zoo_parity_launch.py SCRIPT ARGS...

The script itself runs unchanged (``runpy``, as ``__main__``, with ``sys.argv`` set to
``[SCRIPT, ARGS...]`` and its folder first on ``sys.path``). The JSON in ``ZOO_PARITY`` turns on
hooks installed on the MindSpore API the script calls (the same hooks in both frameworks):

- ``save_init``: path; at ``Model(network, ...)`` the network's parameters are saved there with
  ``save_checkpoint`` (``stop_after_save`` then ends the run with status 0).
- ``load_init``: path; at ``Model(network, ...)`` that checkpoint is loaded into the network with
  ``load_param_into_net``; a network parameter the checkpoint lacks ends the run with an error.
- ``no_shuffle``: the dataset sources (``MnistDataset``, ``Cifar10Dataset``, ...) are built with
  ``shuffle=False``, so both frameworks read the records in file order.
- ``num_samples``: the dataset sources read only this many records (an epoch of a few steps).
- Always: a source's (and ``map``'s, ``batch``'s) ``num_parallel_workers`` above the machine's
  core count is lowered to it (MindSpore rejects more).
- ``force_kwarg``: ``[module, function, keyword, value]``; the script's own function (for
  example ``src.dataset.create_dataset1``) is called with that keyword set (``do_train=False``
  selects a pipeline without random augmentation).
- ``no_sink``: ``Model.train`` runs with ``dataset_sink_mode=False``, the loop MindSpore's CPU
  build runs for either value (tfspore sinks on every device and then reports only the last
  step of each sink, see docs/differences.md).
- ``perturb_ulp``: seed; at ``Model(network, ...)``, after any loading, a random half of the
  network's float32 parameters moves by one ulp (``numpy.nextafter``): a run that measures how
  far MindSpore's own losses move under rounding-size changes of the weights.
- ``save_steps``: folder; the network's parameters are saved there after each training step
  (``step_<k>.ckpt``), for finding the first parameter that differs.
- ``loss_monitor``: a ``LossMonitor(1)`` is added to ``Model.train``'s callbacks (for scripts
  whose own callback prints the loss every few steps or rounded).
"""
from __future__ import annotations

import functools
import importlib
import json
import os
import runpy
import sys

_SOURCES = ("MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "TFRecordDataset",
            "MindDataset", "GeneratorDataset", "NumpySlicesDataset", "TextFileDataset", "CSVDataset")


def _patch_sources(ds, no_shuffle: bool, num_samples) -> None:
    for name in _SOURCES:
        cls = getattr(ds, name, None)
        if cls is None or not isinstance(cls, type):
            continue
        original = cls.__init__

        @functools.wraps(original)
        def init(self, *args, __original=original, **kwargs):
            if no_shuffle:
                kwargs["shuffle"] = False
            if num_samples:
                kwargs["num_samples"] = int(num_samples)
            if (kwargs.get("num_parallel_workers") or 0) > (os.cpu_count() or 1):
                # MindSpore rejects more workers than the machine's cores.
                kwargs["num_parallel_workers"] = os.cpu_count() or 1
            __original(self, *args, **kwargs)

        cls.__init__ = init
    # map and batch take num_parallel_workers too.
    base = getattr(ds, "MnistDataset", None)
    for method in ("map", "batch"):
        owner = next((c for c in getattr(base, "__mro__", ()) if method in c.__dict__), None)
        if owner is None:
            continue
        original = owner.__dict__[method]

        @functools.wraps(original)
        def call(self, *args, __original=original, **kwargs):
            if (kwargs.get("num_parallel_workers") or 0) > (os.cpu_count() or 1):
                kwargs["num_parallel_workers"] = os.cpu_count() or 1
            return __original(self, *args, **kwargs)

        setattr(owner, method, call)


def _perturb(ms, network, seed: int) -> None:
    import numpy as np

    rng = np.random.default_rng(seed)
    for param in network.get_parameters():
        value = param.asnumpy()
        if value.dtype != np.float32:
            continue
        up = rng.random(value.shape) < 0.5
        param.set_data(ms.Tensor(np.where(up, np.nextafter(value, np.float32(np.inf)), value).astype(np.float32)))
    print(f"zoo_parity: moved a random half of the float32 parameters by one ulp (seed {seed})", flush=True)


def _patch_model(ms, settings: dict) -> None:
    from mindspore.train import Callback, LossMonitor, Model

    class _SaveSteps(Callback):
        def __init__(self, network, folder):
            super().__init__()
            self._network, self._folder = network, folder

        def on_train_step_end(self, run_context):
            step = run_context.original_args().cur_step_num
            ms.save_checkpoint(self._network, os.path.join(self._folder, f"step_{step}.ckpt"))

    original_init = Model.__init__
    original_train = Model.train

    @functools.wraps(original_init)
    def init(self, *args, **kwargs):
        network = args[0] if args else kwargs["network"]
        if settings.get("load_init"):
            params = ms.load_checkpoint(settings["load_init"])
            missing = ms.load_param_into_net(network, params)
            missing = missing[0] if isinstance(missing, tuple) else missing
            if missing:
                raise RuntimeError(f"zoo_parity: the checkpoint {settings['load_init']} lacks the network "
                                   f"parameters {list(missing)}")
            print(f"zoo_parity: loaded {len(params)} parameters from {settings['load_init']}", flush=True)
        if settings.get("perturb_ulp") is not None:
            _perturb(ms, network, int(settings["perturb_ulp"]))
        if settings.get("save_init"):
            ms.save_checkpoint(network, settings["save_init"])
            print(f"zoo_parity: saved the initial parameters to {settings['save_init']}", flush=True)
            if settings.get("stop_after_save"):
                sys.stdout.flush()
                os._exit(0)  # pylint: disable=protected-access
        self._zoo_parity_network = network
        original_init(self, *args, **kwargs)

    @functools.wraps(original_train)
    def train(self, *args, **kwargs):
        # Model.train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)
        kwargs.update(zip(("callbacks", "dataset_sink_mode", "sink_size", "initial_epoch"), args[2:]))
        args = args[:2]
        if settings.get("no_sink"):
            kwargs["dataset_sink_mode"] = False
        if settings.get("loss_monitor"):
            callbacks = kwargs.get("callbacks")
            callbacks = [] if callbacks is None else list(callbacks) if isinstance(callbacks, (list, tuple)) \
                else [callbacks]
            kwargs["callbacks"] = callbacks + [LossMonitor(1)]
        if settings.get("save_steps"):
            callbacks = kwargs.get("callbacks")
            callbacks = [] if callbacks is None else list(callbacks) if isinstance(callbacks, (list, tuple)) \
                else [callbacks]
            os.makedirs(settings["save_steps"], exist_ok=True)
            kwargs["callbacks"] = callbacks + [_SaveSteps(self._zoo_parity_network, settings["save_steps"])]
        return original_train(self, *args, **kwargs)

    Model.__init__ = init
    Model.train = train


def main() -> None:
    """Installs the hooks named in ``ZOO_PARITY`` and runs ``sys.argv[1]`` as ``__main__``."""
    settings = json.loads(os.environ.get("ZOO_PARITY", "{}"))
    script = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.path.insert(0, os.path.dirname(script))
    sys.argv = [script] + sys.argv[2:]

    import mindspore as ms
    import mindspore.dataset as ds

    _patch_sources(ds, bool(settings.get("no_shuffle")), settings.get("num_samples"))
    _patch_model(ms, settings)
    if settings.get("force_kwarg"):
        module, function, keyword, value = settings["force_kwarg"]
        mod = importlib.import_module(module)
        original = getattr(mod, function)

        @functools.wraps(original)
        def forced(*args, **kwargs):
            kwargs[keyword] = value
            return original(*args, **kwargs)

        setattr(mod, function, forced)
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
