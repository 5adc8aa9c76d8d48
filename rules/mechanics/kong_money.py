"""Kong money (杠钱 / 刮风下雨): what a kong earns when it stands, before anyone wins."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paipu.rules.melds import MeldKind

if TYPE_CHECKING:
    from paipu.rules.replay import Table


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


@dataclass(frozen=True, slots=True)
class KongRecord:
    """A kong that stood, and the payments it earned (payer, receiver, amount)."""

    index: int
    seat: int
    kind: MeldKind
    from_seat: int | None
    payments: tuple[tuple[int, int, int], ...] = ()
    moved_to: int | None = None  # 呼叫转移: the income went to this winner


class KongMoney:
    """The kongs of a hand that stood, with their payments, as the table records them."""

    def __init__(self, table: Table, amounts: Mapping[str, int]) -> None:
        self.table = table
        self.amounts = amounts
        self.kongs: list[KongRecord] = []

    def add(self, seat: int, kind: MeldKind, from_seat: int | None) -> None:
        """A kong stood: its payments, from the seats still playing."""
        table = self.table
        others = [s for s in range(table.players) if s != seat and not table.seats[s].won]
        payments = tuple(kong_payments(seat, kind, from_seat, others, self.amounts))
        self.kongs.append(KongRecord(table.index, seat, kind, from_seat, payments))
        table.notes.append(f"kong_payment:{kind.value}")

    def transfers(self) -> list[tuple[int, int, int]]:
        """Every kong payment as (payer, receiver, amount), 呼叫转移 applied."""
        out = []
        for kong in self.kongs:
            for payer, receiver, amount in kong.payments:
                out.append(
                    (payer, kong.moved_to if kong.moved_to is not None else receiver, amount)
                )
        return out
