"""The MindRecord on-disk format: shard files, their pages and their SQLite index (see docs/mindrecord.md)."""
