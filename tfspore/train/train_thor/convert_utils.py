"""``ConvertModelUtils`` / ``ConvertNetUtils``: MindSpore's conversion of a Model to THOR training.

MindSpore swaps in its THOR Model only when the optimizer is THOR (``ThorAscend``/``ThorGpu``);
otherwise ``convert_to_thor_model`` returns the Model it was given. tfspore has no THOR optimizer
(:func:`tfspore.nn.thor` raises), so the Model always comes back unchanged.
"""
from __future__ import annotations

from typing import Any

__all__ = ["ConvertNetUtils", "ConvertModelUtils"]

_THOR_OPTIMIZERS = ("ThorAscend", "ThorGpu")


class ConvertNetUtils:
    """Convert a network's layers to THOR layers (not implemented by tfspore)."""

    def convert_to_thor_net(self, net: Any) -> None:
        """Replace Dense/Conv2d/Embedding layers with THOR layers: not implemented.

        Args:
            net: the network.

        Raises:
            NotImplementedError: always (tfspore has no THOR optimizer).
        """
        raise NotImplementedError(f"For 'ConvertNetUtils.convert_to_thor_net', THOR layers are not implemented by "
                                  f"tfspore (network {type(net).__name__}); the THOR optimizer (mindspore.nn.thor) "
                                  "is not available.")


class ConvertModelUtils:
    """Convert a Model to THOR training when its optimizer is THOR."""

    @staticmethod
    def convert_to_thor_model(model: Any, network: Any, loss_fn: Any = None, optimizer: Any = None,
                              metrics: Any = None, amp_level: str = "O0", loss_scale_manager: Any = None,
                              keep_batchnorm_fp32: bool = False) -> Any:
        """Return ``model``, converted to THOR training only for a THOR optimizer.

        Args:
            model: the Model.
            network: the training network.
            loss_fn: the loss function.
            optimizer: the optimizer.
            metrics: the metrics.
            amp_level: the mixed-precision level.
            loss_scale_manager: the loss-scale manager.
            keep_batchnorm_fp32: whether BatchNorm stays in float32.

        Returns:
            The same ``model`` object for a non-THOR optimizer, as in MindSpore.

        Raises:
            NotImplementedError: for a THOR optimizer (which tfspore cannot create).

        Example:
            >>> model = ConvertModelUtils().convert_to_thor_model(model, network=net, loss_fn=loss, optimizer=opt)
        """
        del network, loss_fn, metrics, amp_level, loss_scale_manager, keep_batchnorm_fp32
        if type(optimizer).__name__ in _THOR_OPTIMIZERS:
            raise NotImplementedError("For 'ConvertModelUtils.convert_to_thor_model', THOR training is not "
                                      "implemented by tfspore.")
        return model
