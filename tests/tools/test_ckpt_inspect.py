"""ckpt_inspect prints entry names with control characters escaped."""
import numpy as np

import tfspore as ms
from tools import ckpt_inspect


def test_control_characters_in_names_are_escaped(tmp_path, capsys):
    path = str(tmp_path / "evil.ckpt")
    name = "w\x1b[2J\x07\nx"
    ms.save_checkpoint({name: ms.Tensor(np.ones(2, np.float32))}, path)
    ckpt_inspect.main([path])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "w\\x1b[2J\\x07\\nx" in out
    assert ckpt_inspect.printable("conv.weight") == "conv.weight"
