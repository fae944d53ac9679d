"""Loss-scale managers: ``LossScaleManager``, ``FixedLossScaleManager``, ``DynamicLossScaleManager``.

A manager holds the loss scale on the Python side and hands the training step an update cell
(:class:`tfspore.nn.FixedLossScaleUpdateCell` or :class:`tfspore.nn.DynamicLossScaleUpdateCell`)
that updates the scale inside the compiled step. ``Model`` (non-sink loop) also calls
``update_loss_scale`` after each step when a manager was passed explicitly and
``get_drop_overflow_update()`` is True, as MindSpore does.

Example:
    >>> from tfspore import amp
    >>> mgr = amp.DynamicLossScaleManager(init_loss_scale=2 ** 10, scale_factor=2, scale_window=2)
    >>> mgr.update_loss_scale(True)
    >>> mgr.get_loss_scale()
    512.0
"""
from __future__ import annotations

from typing import Any

from tfspore._internal import validator

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]


class LossScaleManager:
    """Abstract loss-scale manager for mixed-precision training.

    Subclasses implement :meth:`get_loss_scale` (the current scale), :meth:`update_loss_scale`
    (called by the training loop with the overflow status) and :meth:`get_update_cell` (the Cell
    that updates the scale inside the training step).

    Example:
        >>> class Constant(LossScaleManager):
        ...     def get_loss_scale(self):
        ...         return 1.0
    """

    def get_loss_scale(self) -> Any:
        """The loss scale: the factor the loss (hence the gradients) is multiplied by."""

    def update_loss_scale(self, overflow: bool) -> None:
        """Update the loss scale from the overflow status of a step.

        Args:
            overflow: whether the step's gradients overflowed.
        """

    def get_update_cell(self) -> Any:
        """The Cell that updates the loss scale inside the training step."""


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale.

    Args:
        loss_scale: the factor the loss is multiplied by (>= 1). With ``drop_overflow_update``
            False the gradients are not divided back: build the optimizer with the same
            ``loss_scale``.
        drop_overflow_update: skip the optimizer update of a step whose gradients overflow.

    Raises:
        ValueError: when ``loss_scale`` < 1.

    Example:
        >>> mgr = FixedLossScaleManager(1024.0, False)
        >>> mgr.get_loss_scale(), mgr.get_update_cell() is None
        (1024.0, True)
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self) -> float:
        """The loss scale value."""
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        """Whether an overflowed step skips the optimizer update."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow: bool) -> None:
        """Do nothing: the scale is fixed.

        Args:
            overflow: whether the step overflowed (ignored).
        """

    def get_update_cell(self) -> Any:
        """A :class:`tfspore.nn.FixedLossScaleUpdateCell` when ``drop_overflow_update``, else None.

        Returns:
            The update cell, or None (the step then multiplies the loss by the scale without
            overflow handling).
        """
        if not self._drop_overflow_update:
            return None
        from tfspore import nn
        return nn.FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale lowered on overflow and raised after ``scale_window`` good steps.

    Args:
        init_loss_scale: the initial scale (>= 1).
        scale_factor: the factor the scale is divided by on overflow and multiplied by after
            ``scale_window`` steps without overflow (> 0).
        scale_window: the number of consecutive steps without overflow before the scale grows.

    Raises:
        ValueError: for ``init_loss_scale`` < 1, ``scale_factor`` <= 0 or ``scale_window`` <= 0.
        TypeError: when ``scale_window`` is not an int.

    Example:
        >>> mgr = DynamicLossScaleManager(init_loss_scale=8, scale_factor=2, scale_window=2)
        >>> for overflow in (False, False, True):
        ...     mgr.update_loss_scale(overflow)
        >>> mgr.get_loss_scale()
        8.0
    """

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2, scale_window: int = 2000) -> None:
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got {init_loss_scale}")
        self.loss_scale = init_loss_scale
        self.scale_window = validator.check_positive_int(scale_window, "scale_window", self.__class__.__name__)
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self) -> float:
        """The current loss scale value."""
        return self.loss_scale

    def update_loss_scale(self, overflow: bool) -> None:
        """Lower the scale on overflow; raise it every ``scale_window`` steps without one.

        Args:
            overflow: whether the step overflowed.

        Raises:
            RuntimeError: after more than 1000 consecutive overflowed steps.
        """
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError("Dynamic loss scale Continuous overflow ", self.bad_step,
                               " times, has exceeded maximum threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self) -> bool:
        """Always True: an overflowed step skips the optimizer update."""
        return True

    def get_update_cell(self) -> Any:
        """A new :class:`tfspore.nn.DynamicLossScaleUpdateCell` starting from the current scale."""
        from tfspore import nn
        return nn.DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


