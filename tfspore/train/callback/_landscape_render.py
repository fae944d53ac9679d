"""The picture of a loss landscape: the contour image that SummaryLandscape writes beside the grid
(bilinear upsampling, a viridis-like colour map, contour lines, the loss path and the convergence point),
in numpy only.
"""
from __future__ import annotations

from typing import Any

import numpy as np


# ---------------------------------------------------------------------------------- the picture
_COLORMAP = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]], np.float64)


def _colorize(t: np.ndarray) -> np.ndarray:
    """Values in [0, 1] through a viridis-like colour map, as float RGB in [0, 255]."""
    pos = np.clip(t, 0.0, 1.0) * (len(_COLORMAP) - 1)
    low = np.minimum(np.floor(pos).astype(int), len(_COLORMAP) - 2)
    frac = (pos - low)[..., None]
    return _COLORMAP[low] * (1.0 - frac) + _COLORMAP[low + 1] * frac


def _upsample(z: np.ndarray, size: int) -> np.ndarray:
    """Bilinear interpolation of a 2-D grid onto ``size x size`` pixels."""
    rows, cols = z.shape
    yi = np.linspace(0, rows - 1, size)
    xi = np.linspace(0, cols - 1, size)
    y0 = np.minimum(np.floor(yi).astype(int), max(rows - 2, 0))
    x0 = np.minimum(np.floor(xi).astype(int), max(cols - 2, 0))
    y1, x1 = np.minimum(y0 + 1, rows - 1), np.minimum(x0 + 1, cols - 1)
    fy, fx = (yi - y0)[:, None], (xi - x0)[None, :]
    top = z[y0][:, x0] * (1 - fx) + z[y0][:, x1] * fx
    bottom = z[y1][:, x0] * (1 - fx) + z[y1][:, x1] * fx
    return top * (1 - fy) + bottom * fy


def _to_pixel(value: float, lo: float, hi: float, size: int) -> int:
    if hi <= lo:
        return size // 2
    return int(round((value - lo) / (hi - lo) * (size - 1)))


def _dot(rgb: np.ndarray, row: int, col: int, color: tuple, radius: int) -> None:
    size = rgb.shape[0]
    if -radius <= row < size + radius and -radius <= col < size + radius:
        rgb[max(row - radius, 0):min(row + radius + 1, size), max(col - radius, 0):min(col + radius + 1, size)] = color


def render_landscape(landscape: Any, size: int = 256, levels: int = 12) -> np.ndarray:
    """A contour picture of a landscape: colour map, ``levels`` contour lines, loss path and convergence point.

    Args:
        landscape: the computed landscape.
        size: the picture's width and height in pixels.
        levels: the number of contour intervals.

    Returns:
        numpy.ndarray: a float32 NCHW image ``(1, 3, size, size)`` with values in [0, 1] (row 0 is the
        largest y).
    """
    x_axis = landscape.landscape_points.x[0]
    y_axis = landscape.landscape_points.y[:, 0]
    z = np.asarray(landscape.landscape_points.z, dtype=np.float64)
    finite = np.isfinite(z)
    fill = z[finite].max() if finite.any() else 0.0
    z = np.where(finite, z, fill)
    field = _upsample(z, size)[::-1]
    lo, hi = float(field.min()), float(field.max())
    t = (field - lo) / (hi - lo) if hi > lo else np.zeros_like(field)
    rgb = _colorize(t)
    band = np.floor(t * levels).clip(0, levels - 1)
    edge = np.zeros(band.shape, bool)
    edge[:, :-1] |= band[:, :-1] != band[:, 1:]
    edge[:-1, :] |= band[:-1, :] != band[1:, :]
    rgb[edge] = rgb[edge] * 0.35
    xlo, xhi, ylo, yhi = float(x_axis.min()), float(x_axis.max()), float(y_axis.min()), float(y_axis.max())

    def pixel(x: float, y: float) -> tuple:
        return size - 1 - _to_pixel(y, ylo, yhi, size), _to_pixel(x, xlo, xhi, size)

    path = landscape.path_points
    if path is not None and len(path.x):
        points = [pixel(x, y) for x, y in zip(path.x, path.y)]
        for (r0, c0), (r1, c1) in zip(points[:-1], points[1:]):
            steps = max(abs(r1 - r0), abs(c1 - c0), 1)
            for k in range(steps + 1):
                _dot(rgb, round(r0 + (r1 - r0) * k / steps), round(c0 + (c1 - c0) * k / steps), (255, 255, 255), 0)
        for row, col in points:
            _dot(rgb, row, col, (255, 255, 255), 2)
    point = landscape.convergence_point
    if point is not None and len(point.x):
        row, col = pixel(float(point.x[0]), float(point.y[0]))
        _dot(rgb, row, col, (230, 20, 20), 3)
    # values in [0, 1]: SummaryRecord multiplies them by 255; +0.5 keeps the truncation exact.
    image = np.minimum((np.round(rgb) + 0.5) / 255.0, 1.0)
    return np.ascontiguousarray(image.transpose(2, 0, 1)[None], dtype=np.float32)
