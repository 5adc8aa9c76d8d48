"""The rules core (核心): tile sets, wild tiles, decomposition, shanten and waits.

It knows no variant: a variant describes its tiles and wilds in its TOML and hands the
core a :class:`~paipu.rules.core.tiles.TileSet` and a
:class:`~paipu.rules.core.wild.WildSpec`. See "Tiles and wilds" in docs/architecture.md.
The modules are compiled by mypyc (``rules/native.py``); this ``__init__`` is not.
"""
