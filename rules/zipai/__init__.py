"""郴州字牌 (Chenzhou zipai, a 跑胡子 game): the rules that are not mahjong's.

``cards`` (the 80 cards and their names), ``events`` (the log's zipai event kinds),
``melds`` (the meld grammar and the 胡息 table), ``grouping`` (the grouping of a winning
hand that maximises 胡息), ``mingtang`` (the 名堂 detectors), ``scoring`` (起胡, 囤 and
settlement), ``table`` (the replay state machine with the forced moves), ``bots``
(self-play). The registered variant is ``rules/variants/zipai_chenzhou.py``; the rules as
implemented are in ``docs/zipai.md``.

This package module imports nothing, so that ``paipu.rules.events`` can load the zipai
event kinds without a cycle.
"""
