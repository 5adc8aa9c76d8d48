"""The self-play bots: ``core`` (the mahjong bot of MCR's family: styles, the 8-fan plans,
the danger model, the safest tile, calls) and ``regional`` (the 108-tile games' plans —
flush, pungs, pairs, 2/5/8, 定缺 — tuned by each variant's ``[bot]`` table, reusing the
core's ``keep_value``). Merging the regional bot's danger model and safest tile into the
core is the next step (docs/architecture.md)."""
