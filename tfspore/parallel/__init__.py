"""``tfspore.parallel``: parallel-mode helpers used by MindSpore training wrappers."""
