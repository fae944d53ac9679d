"""Pooling and convolution layers reject windows larger than their input (no SIGFPE, no empty result).

TensorFlow's oneDNN max pooling divides by zero on such inputs (SIGFPE kills Python), so the
cases run in a subprocess: the test fails when it dies. Each layer must raise MindSpore's exception
type (ValueError; RuntimeError for AvgPool2d and AvgPool3d, as MindSpore 2.10's AvgPool / AvgPool3D)
naming the layer and both shapes, in PYNATIVE and GRAPH mode.
"""
import os
import subprocess
import sys
import textwrap

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = textwrap.dedent("""
    import numpy as np
    import tfspore as ms
    from tfspore import nn
    CASES = [
        ("MaxPool2d", lambda: nn.MaxPool2d(kernel_size=3, stride=1), (1, 1, 2, 2), "(1, 1, 0, 0)"),
        ("MaxPool2d", lambda: nn.MaxPool2d(3, 1), (1, 2, 2), "(1, 0, 0)"),
        ("MaxPool1d", lambda: nn.MaxPool1d(3, stride=1), (1, 1, 2), "(1, 1, 0)"),
        ("AvgPool2d", lambda: nn.AvgPool2d(3, 1), (1, 1, 2, 2), "(1, 1, 0, 0)"),
        ("AvgPool2d", lambda: nn.AvgPool2d(3, 1, pad_mode="pad"), (1, 1, 2, 2), "(1, 1, 0, 0)"),
        ("AvgPool1d", lambda: nn.AvgPool1d(3, 1), (1, 1, 2), "0)"),
        ("MaxPool3d", lambda: nn.MaxPool3d(3, 1), (1, 1, 2, 2, 2), "(1, 1, 0, 0, 0)"),
        ("MaxPool3d", lambda: nn.MaxPool3d(3, 1, pad_mode="pad"), (1, 1, 2, 2, 2), "(1, 1, 0, 0, 0)"),
        ("AvgPool3d", lambda: nn.AvgPool3d(3, 1), (1, 1, 2, 2, 2), "(1, 1, 0, 0, 0)"),
        ("LPPool1d", lambda: nn.LPPool1d(2, 3, 1), (1, 1, 2), "(1, 1, 0)"),
        ("LPPool2d", lambda: nn.LPPool2d(2, 3, 1), (1, 1, 2, 2), "(1, 1, 0, 0)"),
        ("Conv1d", lambda: nn.Conv1d(1, 1, 3, pad_mode="valid"), (1, 1, 2), "(1, 1, 0)"),
        ("Conv2d", lambda: nn.Conv2d(1, 1, 3, pad_mode="valid"), (1, 1, 2, 2), "(1, 1, 0, 0)"),
        ("Conv2d", lambda: nn.Conv2d(1, 1, 2, pad_mode="valid", dilation=3), (1, 1, 3, 3), "(1, 1, 0, 0)"),
        ("Conv3d", lambda: nn.Conv3d(1, 1, 3, pad_mode="valid"), (1, 1, 2, 2, 2), "(1, 1, 0, 0, 0)"),
        ("Conv1dTranspose", lambda: nn.Conv1dTranspose(1, 1, 3, pad_mode="pad", padding=3), (1, 1, 1), "0)"),
        ("Conv2dTranspose", lambda: nn.Conv2dTranspose(1, 1, 3, pad_mode="pad", padding=3), (1, 1, 1, 1),
         "(1, 1, 0, 0)"),
        ("Conv3dTranspose", lambda: nn.Conv3dTranspose(1, 1, 3, pad_mode="pad", padding=3), (1, 1, 1, 1, 1),
         "(1, 1, 0, 0, 0)"),
    ]
    RUNTIME = ("AvgPool2d", "AvgPool3d")  # MindSpore's AvgPool / AvgPool3D raise RuntimeError
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        for name, make, shape, out in CASES:
            try:
                make()(ms.Tensor(np.ones(shape, np.float32)))
            except (RuntimeError if name in RUNTIME else ValueError) as e:
                msg = str(e)
                ok = f"For '{name}'" in msg and str(shape) in msg and out in msg
                print("OK" if ok else "BADMSG", mode, name, shape, msg[:200], flush=True)
            except Exception as e:
                print("WRONGTYPE", mode, name, shape, type(e).__name__, str(e)[:200], flush=True)
            else:
                print("NOERROR", mode, name, shape, flush=True)
    print("DONE", flush=True)
""")


def test_windows_larger_than_the_input_raise_mindspore_errors_in_both_modes():
    out = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=300, cwd=_REPO)
    assert out.returncode == 0, (out.returncode, out.stdout[-3000:], out.stderr[-2000:])
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "DONE"
    results = lines[:-1]
    assert len(results) == 36
    bad = [line for line in results if not line.startswith("OK")]
    assert not bad, "\n".join(bad)


def test_large_enough_windows_still_work():
    import numpy as np
    import tfspore as ms
    from tfspore import nn
    x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))
    assert nn.MaxPool2d(3, 1)(x).asnumpy().tolist() == [[[[8.0]]]]
    assert nn.AvgPool2d(3, 1)(x).asnumpy().tolist() == [[[[4.0]]]]
    assert nn.MaxPool1d(3, 1)(ms.Tensor(np.array([[[1.0, 5.0, 2.0]]], np.float32))).asnumpy().tolist() == [[[5.0]]]
