"""``tfspore.parallel.cluster``: the ``msrun``-style launcher (``tfspore launch``); see :mod:`.run`."""
