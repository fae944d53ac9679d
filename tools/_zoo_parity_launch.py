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
  far MindSpore's own losses move under rounding-size changes of the weights. With ``load_state``
  the whole training cell's float32 state is moved instead, after loading it.
- ``save_steps``: folder; the network's parameters are saved there after each training step
  (``step_<k>.ckpt``), for finding the first parameter that differs.
- ``loss_monitor``: a ``LossMonitor(1)`` is added to ``Model.train``'s callbacks (for scripts
  whose own callback prints the loss every few steps or rounded).
- ``no_shuffle`` also makes ``Dataset.shuffle(buffer_size)`` return the dataset unchanged.
- ``no_dropout``: ``nn.Dropout`` is built with ``p=0.0`` (its ``construct`` then returns its
  input, in both frameworks) and ``ops.dropout`` returns its input.
- ``no_random_augment``: the random vision transforms the script builds (``mindspore.dataset.vision``
  and its ``transforms`` / ``c_transforms`` modules) are replaced by deterministic ones when
  ``map`` receives them: ``RandomCropDecodeResize(size)`` by ``Decode()`` and
  ``Resize((h, w))`` with its interpolation, ``RandomResizedCrop(size)`` by ``Resize((h, w))``,
  ``RandomCrop(size, padding)`` by ``Pad(padding)`` (where given) and ``CenterCrop(size)``, and
  ``RandomHorizontalFlip``, ``RandomVerticalFlip``, ``RandomColorAdjust``, ``CutOut`` and
  ``RandomErasing`` by nothing (left out of the list; a ``map`` left with no operation is skipped).
- ``amp_level``: ``Model(...)`` gets this ``amp_level`` (``"O0"`` turns off a script's float16 casts).
- ``no_nesterov``: ``nn.Momentum`` is built with ``use_nesterov=False`` (MindSpore 2.10's CPU
  kernel ignores the flag, tfspore applies Nesterov's update: see docs/differences.md).
- ``missing_init_empty``: in the run that writes ``save_init``, the script's own
  ``load_checkpoint`` of that file, not written yet, returns no parameters (for a script whose
  checkpoint option is required before ``Model``, BERT's run_classifier).
- ``force_attr``: ``[[module, dotted.attribute, value], ...]``: set in the script's own module
  before it runs and kept against the script's later assignments (float32 where a script fixes
  ``compute_type`` to float16 in code; ``"mstype.float32"`` names MindSpore's dtype).
- ``sample_order``: a list of record indices; the dataset sources read exactly those records in
  that order (``sampler=SubsetSampler(indices)``; ``shuffle``, ``num_samples``, ``num_shards`` and
  ``shard_id`` are dropped, so it is for one-device runs): a
  run that starts at the batch another run reached, with an epoch of the same length (so a
  learning-rate schedule sized from the dataset is the same).
- ``save_state``: folder; after each training step the whole training cell's parameters (the
  network's, the optimizer's state and step, a loss scale) are saved there as ``state_<k>.ckpt``.
- ``load_state``: path; after ``Model(...)`` built its training cell, that checkpoint (one of
  ``save_state``'s) is loaded into it: the run continues from another run's exact state.
- ``stop_after``: steps; the run ends with status 0 after this many training steps (after
  ``save_state`` saved the last one).
- ``finite_overflow_check``: ``nn.TrainOneStepWithLossScaleCell`` checks the gradients for
  inf/NaN, as tfspore does, where MindSpore 2.10's CPU build would call Ascend float-status
  kernels it lacks (loss-scaled BERT and Transformer training).
"""
from __future__ import annotations

import functools
import importlib
import json
import os
import runpy
import sys
import types

_SOURCES = ("MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "TFRecordDataset",
            "MindDataset", "GeneratorDataset", "NumpySlicesDataset", "TextFileDataset", "CSVDataset")


def _patch_sources(ds, no_shuffle: bool, num_samples, sample_order=None) -> None:
    for name in _SOURCES:
        cls = getattr(ds, name, None)
        if cls is None or not isinstance(cls, type):
            continue
        original = cls.__init__

        @functools.wraps(original)
        def init(self, *args, __original=original, **kwargs):
            if sample_order is not None:
                for key in ("shuffle", "num_samples", "num_shards", "shard_id"):
                    kwargs.pop(key, None)  # a sampler excludes them (a one-device run's num_shards=1 too)
                kwargs["sampler"] = ds.SubsetSampler([int(i) for i in sample_order])
            else:
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
        def call(self, *args, __original=original, __method=method, **kwargs):
            if (kwargs.get("num_parallel_workers") or 0) > (os.cpu_count() or 1):
                kwargs["num_parallel_workers"] = os.cpu_count() or 1
            if __method == "map" and (args or "operations" in kwargs):
                # map(operations, input_columns, ...)
                given = args[0] if args else kwargs["operations"]
                operations = expand_operations(given)
                if operations is not given and not operations:
                    return self  # only left-out transforms: no map
                if args:
                    args = (operations,) + tuple(args[1:])
                else:
                    kwargs["operations"] = operations
            return __original(self, *args, **kwargs)

        setattr(owner, method, call)
    owner = next((c for c in getattr(base, "__mro__", ()) if "shuffle" in c.__dict__), None)
    if no_shuffle and owner is not None:
        owner.shuffle = lambda self, *args, **kwargs: self


class Deterministic:
    """What a random vision transform became under ``no_random_augment``: the transforms that
    stand for it in a ``map`` (none for one that is left out)."""

    def __init__(self, name: str, operations: list) -> None:
        self.name, self.operations = name, list(operations)

    def __repr__(self) -> str:
        return f"Deterministic({self.name} -> {[type(op).__name__ for op in self.operations]})"


def expand_operations(operations):
    """Replaces each :class:`Deterministic` in ``map``'s ``operations`` (a list or one transform) by
    its transforms; returns a list where anything was replaced, else ``operations`` unchanged."""
    listed = operations if isinstance(operations, (list, tuple)) else [operations]
    if not any(isinstance(op, Deterministic) for op in listed):
        return operations
    out = []
    for op in listed:
        out.extend(op.operations if isinstance(op, Deterministic) else [op])
    return out


def _pair(size):
    return (size, size) if isinstance(size, int) else tuple(size)


def deterministic_transforms(module) -> dict:
    """The deterministic stand-ins of ``module``'s random transforms, built from ``module``'s own
    ``Decode``, ``Resize``, ``Pad`` and ``CenterCrop`` (``{name: factory}``, for the names it has)."""
    def crop_decode_resize(size, scale=None, ratio=None, interpolation=None, max_attempts=None):
        resize = [module.Resize(_pair(size))] if interpolation is None else \
            [module.Resize(_pair(size), interpolation)]
        return Deterministic("RandomCropDecodeResize", [module.Decode()] + resize)

    def resized_crop(size, scale=None, ratio=None, interpolation=None, max_attempts=None):
        resize = module.Resize(_pair(size)) if interpolation is None else module.Resize(_pair(size), interpolation)
        return Deterministic("RandomResizedCrop", [resize])

    def crop(size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=None):
        pad = [] if not padding else [module.Pad(padding, fill_value)]
        return Deterministic("RandomCrop", pad + [module.CenterCrop(size)])

    def left_out(name):
        return lambda *args, **kwargs: Deterministic(name, [])

    factories = {"RandomCropDecodeResize": crop_decode_resize, "RandomResizedCrop": resized_crop, "RandomCrop": crop}
    factories.update({name: left_out(name) for name in
                      ("RandomHorizontalFlip", "RandomVerticalFlip", "RandomColorAdjust", "CutOut", "RandomErasing")})
    return {name: f for name, f in factories.items() if hasattr(module, name)}


def _patch_random_augment() -> None:
    for name in ("mindspore.dataset.vision", "mindspore.dataset.vision.transforms",
                 "mindspore.dataset.vision.c_transforms"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for attr, factory in deterministic_transforms(module).items():
            setattr(module, attr, factory)


def dropout_identity(input, p=0.5, training=True, seed=None):  # pylint: disable=redefined-builtin
    """``ops.dropout`` under ``no_dropout``: returns its input."""
    return input


def patch_dropout(nn, function_modules) -> None:
    """``no_dropout``: ``nn.Dropout`` is built with ``p=0.0`` (whatever ``keep_prob`` or ``p`` the
    script passes; its ``construct`` then returns its input) and the ``dropout`` function of each of
    ``function_modules`` returns its input."""
    original = nn.Dropout.__init__

    @functools.wraps(original)
    def init(self, *args, **kwargs):
        # Dropout(keep_prob=0.5, p=None, dtype=mstype.float32): only dtype is kept.
        kwargs.pop("keep_prob", None)
        kwargs.pop("p", None)
        if len(args) > 2:
            kwargs["dtype"] = args[2]
        original(self, p=0.0, **kwargs)

    nn.Dropout.__init__ = init
    for module in function_modules:
        if hasattr(module, "dropout"):
            module.dropout = dropout_identity


def patch_no_nesterov(nn) -> None:
    """``no_nesterov``: ``nn.Momentum(params, learning_rate, momentum, weight_decay, loss_scale,
    use_nesterov)`` is built with ``use_nesterov=False``."""
    original = nn.Momentum.__init__

    @functools.wraps(original)
    def init(self, *args, **kwargs):
        if len(args) > 5:
            args = args[:5] + (False,) + tuple(args[6:])
        else:
            kwargs["use_nesterov"] = False
        original(self, *args, **kwargs)

    nn.Momentum.__init__ = init


def _patch_dropout() -> None:
    import mindspore.nn as nn

    modules = []
    for name in ("mindspore.ops", "mindspore.ops.function", "mindspore.ops.function.nn_func"):
        try:
            modules.append(importlib.import_module(name))
        except ImportError:
            continue
    patch_dropout(nn, modules)


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

    class _SaveState(Callback):
        def __init__(self, folder, stop_after):
            super().__init__()
            self._folder, self._stop_after = folder, stop_after

        def on_train_step_end(self, run_context):
            args = run_context.original_args()
            step = args.cur_step_num
            if self._folder:
                ms.save_checkpoint(args.train_network, os.path.join(self._folder, f"state_{step}.ckpt"))
            if self._stop_after and step >= self._stop_after:
                print(f"zoo_parity: stopped after step {step}", flush=True)
                sys.stdout.flush()
                os._exit(0)  # pylint: disable=protected-access

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
        if settings.get("perturb_ulp") is not None and not settings.get("load_state"):
            _perturb(ms, network, int(settings["perturb_ulp"]))
        if settings.get("save_init"):
            ms.save_checkpoint(network, settings["save_init"])
            print(f"zoo_parity: saved the initial parameters to {settings['save_init']}", flush=True)
            if settings.get("stop_after_save"):
                sys.stdout.flush()
                os._exit(0)  # pylint: disable=protected-access
        self._zoo_parity_network = network
        if settings.get("amp_level"):
            kwargs["amp_level"] = settings["amp_level"]
        original_init(self, *args, **kwargs)
        if settings.get("load_state"):
            load_state(ms, self.train_network, settings["load_state"])
            if settings.get("perturb_ulp") is not None:  # the training cell's state, after loading it
                _perturb(ms, self.train_network, int(settings["perturb_ulp"]))

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
        if settings.get("save_state") or settings.get("stop_after"):
            callbacks = kwargs.get("callbacks")
            callbacks = [] if callbacks is None else list(callbacks) if isinstance(callbacks, (list, tuple)) \
                else [callbacks]
            if settings.get("save_state"):
                os.makedirs(settings["save_state"], exist_ok=True)
            kwargs["callbacks"] = callbacks + [_SaveState(settings.get("save_state"), settings.get("stop_after"))]
        return original_train(self, *args, **kwargs)

    Model.__init__ = init
    Model.train = train


def load_state(ms, train_network, path: str) -> None:
    """``load_state``: loads ``path`` into ``train_network`` (the training cell ``Model`` built);
    a parameter of the cell the checkpoint lacks ends the run with an error."""
    params = ms.load_checkpoint(path)
    missing = ms.load_param_into_net(train_network, params)
    missing = missing[0] if isinstance(missing, tuple) else missing
    if missing:
        raise RuntimeError(f"zoo_parity: the state checkpoint {path} lacks the training cell's parameters "
                           f"{list(missing)}")
    print(f"zoo_parity: loaded the training state ({len(params)} parameters) from {path}", flush=True)


def load_nothing_from(target: str, modules) -> None:
    """Makes ``load_checkpoint(target)`` return an empty parameter dict while ``target`` does not
    exist, in each of ``modules`` whose ``load_checkpoint`` is the first one's."""
    target = os.path.abspath(target)
    original = modules[0].load_checkpoint

    @functools.wraps(original)
    def load(ckpt_file_name, *args, **kwargs):
        if os.path.abspath(str(ckpt_file_name)) == target and not os.path.exists(target):
            print(f"zoo_parity: {target} is not written yet: loading no parameters from it", flush=True)
            return {}
        return original(ckpt_file_name, *args, **kwargs)

    for module in modules:
        if getattr(module, "load_checkpoint", None) is original:
            module.load_checkpoint = load


def _missing_init_empty(ms, settings: dict) -> None:
    """``missing_init_empty``: in the run that saves ``save_init``, the script's own loading of that
    not yet written checkpoint (``load_checkpoint(path)`` before ``Model``, where the script's
    checkpoint option is required or unguarded) reads an empty parameter dict."""
    if settings.get("missing_init_empty") and settings.get("save_init"):
        import mindspore.train as train
        import mindspore.train.serialization as serialization

        load_nothing_from(settings["save_init"], [serialization, train, ms])


def forced_value(value, dtype_of):
    """A ``force_attr`` value: ``"mstype.<name>"`` is ``dtype_of(<name>)``; a dict becomes an object
    with those attributes (values converted the same way); anything else stays."""
    if isinstance(value, str) and value.startswith("mstype."):
        return dtype_of(value[len("mstype."):])
    if isinstance(value, dict):
        return types.SimpleNamespace(**{k: forced_value(v, dtype_of) for k, v in value.items()})
    return value


def pin(owner, name: str) -> None:
    """Ignores (with a printed note) later assignments of ``name`` on ``owner``, an instance of a
    plain class (its class becomes a subclass that filters ``__setattr__``)."""
    cls = type(owner)
    if "_zoo_parity_pinned" not in cls.__dict__:
        def pinned_setattr(self, key, value, __base=cls):
            if key in type(self)._zoo_parity_pinned:  # pylint: disable=protected-access
                print(f"zoo_parity: kept the forced {key} (the script set {value!r})", flush=True)
                return
            __base.__setattr__(self, key, value)

        owner.__class__ = type(cls.__name__, (cls,), {"__setattr__": pinned_setattr, "_zoo_parity_pinned": set()})
    type(owner)._zoo_parity_pinned.add(name)  # pylint: disable=protected-access


def force_attributes(items, dtype_of) -> None:
    """Sets ``module.dotted.attribute = value`` for each ``[module, dotted.attribute, value]`` of
    ``items`` (the module imported by name), pinned (:func:`pin`) where its owner is not a module."""
    for module, path, value in items:
        value = forced_value(value, dtype_of)
        owner = importlib.import_module(module)
        *parents, name = path.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        setattr(owner, name, value)
        if not isinstance(owner, types.ModuleType):
            pin(owner, name)
        print(f"zoo_parity: set {module}.{path} = {value}", flush=True)


def _force_attr(ms, settings: dict) -> None:
    """``force_attr``: ``[[module, dotted.attribute, value], ...]``; before the script runs, its
    module (imported as the script will import it: ``src.model_utils.config``) gets that attribute
    set and pinned: the script's own later assignments to it are ignored (BERT's config code sets
    ``bert_net_cfg.compute_type`` to float16 for run_classifier whatever the yaml says; the
    Transformer's train.py sets ``config.compute_type`` and ``config.lr_schedule`` at import). A
    value ``"mstype.<name>"`` is MindSpore's dtype ``<name>``; a dict becomes an object with those
    attributes."""
    force_attributes(settings.get("force_attr") or (), lambda name: getattr(ms, name))


def check_overflow_by_finiteness(cell_class) -> None:
    """Makes ``cell_class`` (MindSpore's ``nn.TrainOneStepWithLossScaleCell``) detect overflow as
    ``1 - all(IsFinite(grad))`` summed over the gradients, its Ascend INFNAN-mode path without
    AllFinite, whatever the device."""
    original = cell_class.__init__

    @functools.wraps(original)
    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.gpu_target = self.ascend_910a_target = self.enable_allfinite = False
        self.ascend_910b_target = True
        self._ascend_check_overflow_mode = "INFNAN_MODE"  # pylint: disable=protected-access

    cell_class.__init__ = init


def _finite_overflow_check(ms, settings: dict) -> None:
    """``finite_overflow_check``: ``nn.TrainOneStepWithLossScaleCell`` (and the zoo's subclasses)
    checks the gradients for inf/NaN (:func:`check_overflow_by_finiteness`). MindSpore 2.10's CPU
    build takes its Ascend float-status path there (``NPUGetFloatStatusV2``; its GPU path uses
    ``FloatStatus``; neither has a CPU kernel, so a loss-scaled script stops at compile); tfspore
    checks the gradients that way on every device and ignores these attributes."""
    if settings.get("finite_overflow_check"):
        import mindspore.nn as nn

        check_overflow_by_finiteness(nn.TrainOneStepWithLossScaleCell)


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

    _patch_sources(ds, bool(settings.get("no_shuffle")), settings.get("num_samples"), settings.get("sample_order"))
    _patch_model(ms, settings)
    if settings.get("no_dropout"):
        _patch_dropout()
    if settings.get("no_random_augment"):
        _patch_random_augment()
    if settings.get("no_nesterov"):
        import mindspore.nn as nn
        patch_no_nesterov(nn)
    _missing_init_empty(ms, settings)
    _force_attr(ms, settings)
    _finite_overflow_check(ms, settings)
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
