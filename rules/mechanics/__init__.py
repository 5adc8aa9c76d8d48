"""Mechanics (玩法机制): reusable pieces of rules that several variants compose.

One module per mechanic, knowing no variant: ``birds`` (扎鸟 / 买马: where a bird lands and
what a hit costs), ``kong_money`` (杠钱 / 刮风下雨), ``kong_reveal`` (开杠: the event of
turning up tiles after a kong). A variant imports the mechanics it uses from its own
folder (``rules/variants/<id>/``); a mechanic never imports a variant.
"""
