"""Mechanics (玩法机制): reusable pieces of rules that several variants compose.

One module per mechanic, knowing no variant: ``birds`` (扎鸟 / 买马: where a bird lands,
what a hit costs, and the ``bird`` event on the table), ``kong_money`` (杠钱 / 刮风下雨),
``kong_reveal`` (开杠: the event of turning up tiles after a kong and the wins on them),
``void_suit`` (定缺), ``missed_win_lock`` (漏胡), ``haidi`` (要海底 and the 海底 tile's
discard), ``first_turn`` (天胡 / 地胡 facts). A mechanic with table state is a small class
holding the table; a variant's :class:`~paipu.rules.replay.VariantState` composes the
ones it uses, as typed attributes, and forwards the table's hooks to them. A variant
imports the mechanics it uses from its own folder (``rules/variants/<id>/``); a mechanic
never imports a variant.
"""
