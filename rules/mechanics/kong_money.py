"""Kong money (杠钱 / 刮风下雨): what a kong earns when it stands, before anyone wins."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from paipu.rules.melds import MeldKind


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


def with_bonus(amounts: Mapping[str, int], bonus: int) -> dict[str, int]:
    """Kong money with ``bonus`` added to every payment (转转 坐飘: both seats' 飘).

    >>> with_bonus({"kong": 3, "added_kong": 1}, 2)
    {'kong': 5, 'added_kong': 3}
    """
    return {kind: amount + bonus for kind, amount in amounts.items()}
