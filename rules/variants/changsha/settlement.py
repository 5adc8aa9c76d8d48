"""Changsha settlement (长沙结算): a win or an opening-hand win as deltas, birds included."""

from __future__ import annotations

from collections.abc import Sequence

from paipu.rules.mechanics.birds import BirdMode, bird_amount, bird_hits, die_birds
from paipu.rules.settlement import transfers
from paipu.rules.tiles import Tile


def changsha_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    dealer: int,
    per_payer: int,
    *,
    birds: Sequence[Tile] = (),
    bird_mode: BirdMode = BirdMode.MULTIPLY,
    dealer_bonus: bool = False,
    bird_origin: int | None = None,
) -> tuple[int, ...]:
    """长沙: on a self-draw every other seat pays ``per_payer``, on a discard (or a robbed
    kong) the discarder alone; +1 where the dealer pays or receives (算庄闲); then the birds,
    counted from the winner (or ``bird_origin``), that hit the winner or that payer.

    The digest's worked example: South wins 2 大胡 (12) on the dealer East's discard, birds
    5m (the winner) and 3s (North): East pays (12 + 1) × 2 = 26.

    >>> changsha_win_deltas(4, 1, 0, 0, 12, birds=(4, 20), dealer_bonus=True)
    (-26, 26, 0, 0)
    >>> changsha_win_deltas(4, 1, None, 0, 12, birds=(4, 20), dealer_bonus=True)
    (-26, 98, -24, -48)
    """
    payers = [s for s in range(players) if s != winner] if from_seat is None else [from_seat]
    payments = []
    for payer in payers:
        amount = per_payer + (1 if dealer_bonus and dealer in (winner, payer) else 0)
        origin = winner if bird_origin is None else bird_origin
        hits = bird_hits(birds, origin, winner, payer, players)
        payments.append((payer, winner, bird_amount(amount, hits, bird_mode)))
    return transfers(players, payments)


def start_win_deltas(
    players: int,
    seat: int,
    dealer: int,
    per_payer: int,
    *,
    dealer_bonus: bool = False,
    dice: Sequence[int] = (),
    bird_mode: BirdMode = BirdMode.MULTIPLY,
) -> tuple[int, ...]:
    """长沙 起手小胡: settled at once as a small self-draw, each other seat paying; with
    ``dice`` (option ``start_win_birds = "dice"``) the dice are its birds, counted from the
    opening winner: a die of d lands (d − 1) seats on, hitting as a bird of rank d.

    >>> start_win_deltas(4, 2, 0, 2, dealer_bonus=True)
    (-3, -2, 7, -2)

    West shows 六六顺, dice 1 and 2: the 1 lands on West (every payer hit once), the 2 on
    North (hit again): ×2 from East and South, ×4 from North.

    >>> start_win_deltas(4, 2, 0, 2, dice=(1, 2))
    (-4, -4, 16, -8)
    """
    birds = die_birds(dice)
    return transfers(
        players,
        [
            (
                payer,
                seat,
                bird_amount(
                    per_payer + (1 if dealer_bonus and dealer in (seat, payer) else 0),
                    bird_hits(birds, seat, seat, payer, players),
                    bird_mode,
                ),
            )
            for payer in range(players)
            if payer != seat
        ],
    )
