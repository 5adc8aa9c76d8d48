"""First-turn wins (天胡 / 地胡): the facts a scorer needs to know a win came before anything
was claimed or declared."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paipu.rules.replay import Phase

if TYPE_CHECKING:
    from paipu.rules.replay import Table


def first_turn_facts(
    table: Table, seat: int, from_seat: int | None, *, own_draw: bool
) -> dict[str, bool]:
    """天胡: the dealer wins on its first tiles; 地胡: another seat wins on the dealer's
    first discard (and with ``own_draw`` on its own first draw), nothing claimed yet."""
    dealer = table.record.dealer
    if not table.first_turn() or table.seats[seat].discards:
        return {}
    if seat == dealer:
        first = from_seat is None and table.discard_count == 0 and table.seats[seat].draws == 1
        return {"heavenly": True} if first else {}
    if from_seat is not None:
        if from_seat == dealer and table.discard_count == 1 and table.phase is Phase.CLAIM:
            return {"earthly": True}
        return {}
    return {"earthly": True} if own_draw and table.seats[seat].draws == 1 else {}
