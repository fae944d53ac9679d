"""mindrecord.set_enc_key / set_enc_mode / set_dec_mode: MindSpore's argument checks and getters."""
import pytest

import tfspore
from tfspore import compat, mindrecord
from tfspore.mindrecord import config

KEY = "0123456789abcdef"


@pytest.fixture(autouse=True)
def _reset():
    yield
    config.set_enc_key(None)
    config.set_enc_mode("AES-GCM")
    config.set_dec_mode(None)


@pytest.mark.parametrize("key", [KEY, KEY + "01234567", KEY * 2, None])
def test_set_enc_key_accepts_16_24_32_characters_or_none(key):
    mindrecord.set_enc_key(key)
    assert config._get_enc_key() == key  # pylint: disable=protected-access


@pytest.mark.parametrize("key, shown", [("short", "a str of length 5"), (KEY + "x", "a str of length 17"),
                                        (b"0123456789abcdef", "a value of type bytes (length 16)"),
                                        (16, "a value of type int")])
def test_set_enc_key_rejects_other_values_without_showing_them(key, shown):
    mindrecord.set_enc_key(KEY)
    with pytest.raises(ValueError) as info:
        mindrecord.set_enc_key(key)
    text = str(info.value)
    assert text == f"For 'set_enc_key', the 'enc_key' must be a str of length 16, 24 or 32, but got {shown}."
    assert "0123456789" not in text and "short" not in text
    assert config._get_enc_key() == KEY  # pylint: disable=protected-access  # unchanged


def test_modes_and_getters():
    assert config._get_enc_mode() == "AES-GCM" and config._get_dec_mode() == "AES-GCM"  # pylint: disable=W0212
    mindrecord.set_dec_mode("AES-GCM")
    assert config._get_dec_mode() == "AES-GCM"  # pylint: disable=protected-access

    def enc(src, size, dst, key):
        dst.write(src.read(size))

    mindrecord.set_enc_mode(enc)
    assert config._get_enc_mode() is enc  # pylint: disable=protected-access
    assert config._get_dec_mode() == "AES-GCM"  # pylint: disable=protected-access  # set explicitly above
    mindrecord.set_dec_mode(None)
    with pytest.raises(RuntimeError, match="you must also define custom decryption"):
        config._get_dec_mode()  # pylint: disable=protected-access
    mindrecord.set_dec_mode(enc)
    assert config._get_dec_mode() is enc  # pylint: disable=protected-access


@pytest.mark.parametrize("setter, arg", [("set_enc_mode", "enc_mode"), ("set_dec_mode", "dec_mode")])
@pytest.mark.parametrize("value", ["AES-CBC", "aes-gcm", 7])
def test_modes_reject_unknown_values(setter, arg, value):
    with pytest.raises(ValueError) as info:
        getattr(mindrecord, setter)(value)
    assert str(info.value) == f"For '{setter}', the '{arg}' must be one of ['AES-GCM'], but got {value!r}."


def test_set_enc_mode_rejects_none():
    with pytest.raises(ValueError, match="'enc_mode' must be one of"):
        mindrecord.set_enc_mode(None)


def test_names_under_the_mindspore_alias():
    compat.unalias_mindspore()
    compat.alias_mindspore()
    try:
        import mindspore.mindrecord as alias  # pylint: disable=import-outside-toplevel
        from mindspore.mindrecord.config import _get_enc_key  # pylint: disable=import-outside-toplevel
        alias.set_enc_key(KEY)
        assert alias.set_enc_key is tfspore.mindrecord.set_enc_key and _get_enc_key() == KEY
    finally:
        compat.unalias_mindspore()
    assert {"set_enc_key", "set_enc_mode", "set_dec_mode"} <= set(tfspore.mindrecord.__all__)
