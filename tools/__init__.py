"""Command-line tools that carry checkpoints and networks between MindSpore and TensorFlow.

Each module runs as a script (``python tools/ckpt_to_tf.py ...``) or as a module
(``python -m tools.ckpt_to_tf ...``); see ``tools/README.md``.
"""
