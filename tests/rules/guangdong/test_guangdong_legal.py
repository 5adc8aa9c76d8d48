"""The law of the legal moves (tests/rules/test_legal_selfplay.py) over self-played 广东推倒胡
hands with ghosts: every logged move is among legal.py's lists at its point, and a claim
taken is the best the seats wanted."""

from __future__ import annotations

from typing import Any

import pytest

from paipu.rules.events import Indicator
from paipu.rules.record import HandRecord
from paipu.rules.selfplay import HandSetup, Style, hand_rng
from paipu.rules.variants import get_variant
from paipu.selfplay import MAHJONG_FAMILIES, play_hand
from tests.rules.test_legal_selfplay import Log, Recording, check_hand

RULES = {"ghost": "white_flip1", "discard_win": True, "horses": 2, "seven_pairs": True}


def _played(seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[HandRecord, Log]:
    log: Log = {}
    for family, make in list(MAHJONG_FAMILIES.items()):

        def wrapped(*args: Any, _make: Any = make) -> list[Recording]:
            return [Recording(bot, seat, log) for seat, bot in enumerate(_make(*args))]

        monkeypatch.setitem(MAHJONG_FAMILIES, family, wrapped)
    variant = get_variant("guangdong")
    setup = HandSetup(
        variant="guangdong",
        game="legal",
        hand=0,
        players=("a", "b", "c", "d"),
        styles=(Style.AGGRESSIVE, Style.BALANCED, Style.DEFENSIVE, Style.AGGRESSIVE),
        dealer=seed % 4,
        scores_before=(0, 0, 0, 0),
        rules=RULES,
    )
    outcome = play_hand(variant, hand_rng(seed, 0, 0), setup, variant.resolve_options(RULES))
    monkeypatch.undo()
    return outcome.record, log


def test_every_logged_move_with_ghosts_is_legal() -> None:
    checked = 0
    with pytest.MonkeyPatch.context() as monkeypatch:
        for seed in range(6):
            record, log = _played(seed, monkeypatch)
            assert isinstance(record.events[0], Indicator)
            checked += check_hand(record, log)
    assert checked > 0
