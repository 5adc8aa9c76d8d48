"""Settlement (结算): turning a scored win into point transfers between seats.

Every function returns one delta per seat and the deltas always sum to zero; the regional
ones that return payments, (payer, receiver, amount), become such deltas with
:func:`transfers`.

>>> mcr_win_deltas(4, winner=1, from_seat=2, fan=9)
(-8, 33, -17, -8)
>>> mcr_win_deltas(4, winner=1, from_seat=None, fan=12)
(-20, 60, -20, -20)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum

from paipu.rules.melds import MeldKind
from paipu.rules.tiles import Tile


def mcr_win_deltas(
    players: int, winner: int, from_seat: int | None, fan: int, base: int = 8
) -> tuple[int, ...]:
    """MCR (国标计分): on a self-draw every other seat pays ``base + fan``; on a discard
    (or a robbed kong) the discarder pays ``base + fan`` and the others ``base`` each."""
    deltas = [0] * players
    for seat in range(players):
        if seat == winner:
            continue
        pays = base + fan if from_seat is None or seat == from_seat else base
        deltas[seat] -= pays
        deltas[winner] += pays
    return tuple(deltas)


# ---------------------------------------------------------------------- regional (湖南, 四川)
# The 108-tile games of docs/regional.md: Changsha (长沙), Zhuanzhuan (转转), Sichuan (血战).


class BirdMode(StrEnum):
    """How birds (扎鸟) that hit a payer change what it pays."""

    MULTIPLY = "multiply"  # ×2 per hit (乘法翻倍)
    ONE_PLUS_HITS = "one_plus_hits"  # ×(1 + hits) (加法翻倍, 扎1鸟×2 / 扎2鸟×3)
    ADD_POINT = "add_point"  # +1 per hit (中鸟加分)
    SEED_LITERAL = "seed_literal"  # ×max(1, hits): the 转转 seed's own arithmetic


class SelfDrawBonus(StrEnum):
    """What a self-draw adds in Sichuan (自摸加底 / 自摸加倍)."""

    ADD_BASE = "add_base"  # +1 底 from each payer
    DOUBLE = "double"  # ×2
    NONE = "none"


def transfers(players: int, payments: Iterable[tuple[int, int, int]]) -> tuple[int, ...]:
    """Deltas of (payer, receiver, amount) payments: zero-sum by construction.

    >>> transfers(4, [(0, 1, 5), (2, 1, 3)])
    (-5, 8, -3, 0)
    """
    deltas = [0] * players
    for payer, receiver, amount in payments:
        deltas[payer] -= amount
        deltas[receiver] += amount
    return tuple(deltas)


def bird_seat(tile: Tile, origin: int, players: int) -> int:
    """The seat a bird lands on: rank r counts (r − 1) seats on from ``origin`` (1/5/9 the
    origin itself, 2/6 the next seat, 3/7 the one opposite, 4/8 the previous seat).

    >>> bird_seat(4, 1, 4), bird_seat(20, 1, 4)  # 5m → seat 1 itself; 3s → two on: seat 3
    (1, 3)
    """
    return (origin + tile % 9) % players


def bird_amount(amount: int, hits: int, mode: BirdMode) -> int:
    """What a payer pays once ``hits`` birds hit it.

    >>> [bird_amount(2, 3, m) for m in BirdMode]
    [16, 8, 5, 6]
    """
    if mode is BirdMode.MULTIPLY:
        return amount * 2**hits
    if mode is BirdMode.ONE_PLUS_HITS:
        return amount * (1 + hits)
    if mode is BirdMode.ADD_POINT:
        return amount + hits
    return amount * max(1, hits)


def bird_hits(birds: Sequence[Tile], origin: int, winner: int, payer: int, players: int) -> int:
    """Birds that hit one payer: those on the winner and those on the payer itself."""
    seats = [bird_seat(t, origin, players) for t in birds]
    return sum(1 for s in seats if s == winner) + sum(1 for s in seats if s == payer)


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
    players: int, seat: int, dealer: int, per_payer: int, *, dealer_bonus: bool = False
) -> tuple[int, ...]:
    """长沙 起手小胡: settled at once as a small self-draw, each other seat paying.

    >>> start_win_deltas(4, 2, 0, 2, dealer_bonus=True)
    (-3, -2, 7, -2)
    """
    return transfers(
        players,
        [
            (payer, seat, per_payer + (1 if dealer_bonus and dealer in (seat, payer) else 0))
            for payer in range(players)
            if payer != seat
        ],
    )


def zhuanzhuan_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    dealer: int,
    *,
    robbed: bool = False,
    self_draw_units: int = 2,
    discard_units: int = 1,
    birds: Sequence[Tile] = (),
    bird_mode: BirdMode = BirdMode.ONE_PLUS_HITS,
    piao: int = 0,
    bird_origin: int | None = None,
) -> tuple[int, ...]:
    """转转: a self-draw costs every other seat ``self_draw_units``, a discard the discarder
    ``discard_units``; a robbed kong (抢杠胡) counts as a self-draw whose three shares the
    konger pays. Birds count from the dealer: one on the winner hits every share, one on a
    payer (or, on a discard, on the discarder) hits that share. 坐飘 adds both seats' 飘
    (every seat sits with ``piao``) to each share.

    The digest's worked example: West (seat 2) self-draws, birds 9s 3m 6p 7m:
    East and South pay 2 × (1 + 3), North 2 × (1 + 2).

    >>> zhuanzhuan_win_deltas(4, 2, None, 0, birds=(26, 2, 14, 6))
    (-8, -8, 22, -6)
    """
    shares = []
    for payer in range(players):
        if payer == winner or (from_seat is not None and not robbed and payer != from_seat):
            continue
        base = self_draw_units if from_seat is None or robbed else discard_units
        origin = dealer if bird_origin is None else bird_origin
        hits = bird_hits(birds, origin, winner, payer, players)
        amount = bird_amount(base, hits, bird_mode) + 2 * piao
        shares.append((from_seat if robbed and from_seat is not None else payer, winner, amount))
    return transfers(players, shares)


def sichuan_win_deltas(
    players: int,
    winner: int,
    from_seat: int | None,
    in_hand: Iterable[int],
    amount: int,
    *,
    base: int = 1,
    self_draw_bonus: SelfDrawBonus = SelfDrawBonus.ADD_BASE,
) -> tuple[int, ...]:
    """四川: a discard (or a robbed kong) costs the discarder ``base × amount``; a self-draw
    costs every seat still in the hand as much, plus the self-draw bonus.

    The digest's worked example: South self-draws ×16, 自摸加底: East, West, North pay 17.

    >>> sichuan_win_deltas(4, 1, None, (0, 2, 3), 16)
    (-17, 51, -17, -17)
    """
    pays = base * amount
    if from_seat is not None:
        return transfers(players, [(from_seat, winner, pays)])
    if self_draw_bonus is SelfDrawBonus.ADD_BASE:
        pays += base
    elif self_draw_bonus is SelfDrawBonus.DOUBLE:
        pays *= 2
    return transfers(players, [(p, winner, pays) for p in in_hand if p != winner])


def kong_payments(
    konger: int,
    kind: MeldKind,
    from_seat: int | None,
    others: Iterable[int],
    amounts: Mapping[str, int],
) -> list[tuple[int, int, int]]:
    """Kong money (杠钱 / 刮风下雨), paid when the kong stands: a claimed kong by its feeder
    (``amounts["kong"]``), an added or concealed kong by each seat in ``others``.

    >>> kong_payments(0, MeldKind.CONCEALED_KONG, None, (1, 2, 3), {"concealed_kong": 2})
    [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    """
    amount = amounts[kind.value]
    if kind is MeldKind.KONG:
        assert from_seat is not None
        return [(from_seat, konger, amount)]
    return [(payer, konger, amount) for payer in others if payer != konger]


def sichuan_exhaustive_payments(
    flower_pigs: Iterable[int],
    not_ready: Iterable[int],
    ready: Mapping[int, int],
    receivers: Iterable[int],
    *,
    cap: int,
    base: int = 1,
) -> list[tuple[int, int, int]]:
    """四川 at the exhaustive draw: 查花猪 — each 花猪 (still holding three suits) pays ``cap``
    to every receiver that is not a 花猪; 查大叫 — each seat not ready (and not a 花猪) pays
    each ready seat that seat's best multiplier (``ready``: seat → multiplier, capped).

    >>> sichuan_exhaustive_payments({3}, {2}, {0: 8}, (0, 2), cap=64)
    [(3, 0, 64), (3, 2, 64), (2, 0, 8)]
    """
    pigs = sorted(set(flower_pigs))
    out = []
    for pig in pigs:
        out += [(pig, r, cap * base) for r in sorted(set(receivers)) if r not in pigs]
    for payer in sorted(set(not_ready) - set(pigs)):
        out += [(payer, seat, min(m, cap) * base) for seat, m in sorted(ready.items())]
    return out
