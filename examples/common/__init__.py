"""What the absl-flag example scripts share: the flag set and the run set-up (examples/common/flags.py)."""
