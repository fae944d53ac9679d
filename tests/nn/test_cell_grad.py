"""``nn.Jvp`` and ``nn.Vjp`` (tfspore/nn/grad/cell_grad.py)."""
import numpy as np

from tfspore import Tensor, nn


class _Cube(nn.Cell):
    def construct(self, x, y):
        return x ** 3 * y


def test_jvp_and_vjp(mode):
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    y = x + 1
    v = np.array([[1.0, 0.5], [-1.0, 2.0]], np.float32)
    out, jvp = nn.Jvp(_Cube())(Tensor(x), Tensor(y), (Tensor(v), Tensor(v)))
    np.testing.assert_allclose(out.asnumpy(), x ** 3 * y, rtol=1e-6)
    np.testing.assert_allclose(jvp.asnumpy(), 3 * x ** 2 * y * v + x ** 3 * v, rtol=1e-5)
    out, (gx, gy) = nn.Vjp(_Cube())(Tensor(x), Tensor(y), Tensor(v))
    np.testing.assert_allclose(gx.asnumpy(), 3 * x ** 2 * y * v, rtol=1e-5)
    np.testing.assert_allclose(gy.asnumpy(), x ** 3 * v, rtol=1e-5)
    _, g = nn.Vjp(lambda a: a * a)(Tensor(x), Tensor(v))
    np.testing.assert_allclose(g.asnumpy(), 2 * x * v, rtol=1e-6)
