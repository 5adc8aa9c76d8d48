"""The law of the legal moves (``tests/rules/test_legal_selfplay.py``) over self-played hands
of the 5-fan competition rules: every logged move is in the list
:mod:`paipu.rules.legal` gives at its point, and every claim taken is the best the seats
wanted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/rules: the law's module
from test_legal_selfplay import _played, check_hand


def test_every_logged_move_is_legal() -> None:
    claims = 0
    with pytest.MonkeyPatch.context() as monkeypatch:
        for seed in range(6):
            record, log = _played("competition_5fan", seed, monkeypatch)
            claims += check_hand(record, log)
    assert claims > 0  # the law is not empty: claims were taken and checked
