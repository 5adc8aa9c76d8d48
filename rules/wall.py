"""Walls (牌墙): where the replay's draws come from, known tile by tile or only counted.

A :class:`SharedWall` is the rules' single wall: ordinary draws from the front,
replacement draws (after a kong or a flower) from the end. A :class:`DuplicateWall` is
Botzone's duplicate format: each seat draws everything from its own wall. When the record
has no ``wall`` the tiles are unknown and only counted (``draw`` returns ``UNKNOWN``).

>>> wall = SharedWall.of([0, 1, 2, 3], players=4)
>>> wall.draw(0, replacement=False), wall.draw(0, replacement=True), wall.left()
(0, 3, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from paipu.rules.tiles import Tile

UNKNOWN = -1


@dataclass
class SharedWall:
    """One wall for everyone; ``tiles`` None when the record does not give it. ``size``
    tiles are live; ``dead`` are the dead stacks after them (常州's 20, never drawn, the
    indicator among them), still tiles of the wall: :meth:`remaining` lists them.

    >>> wall = SharedWall(2, (0, 1), dead=(5, 6))
    >>> wall.draw(0, replacement=True), wall.left(), wall.remaining()
    (1, 1, (0, 5, 6))
    """

    size: int
    tiles: tuple[Tile, ...] | None = None
    front: int = 0
    back: int = 0
    dead: tuple[Tile, ...] = ()

    @classmethod
    def of(cls, tiles: Sequence[Tile], players: int) -> SharedWall:
        return cls(len(tiles), tuple(tiles))

    def left(self) -> int:
        return self.size - self.front - self.back

    def left_for(self, seat: int) -> int:
        return self.left()

    def can_replace(self, seat: int) -> bool:
        return self.left() > 0

    def draw(self, seat: int, replacement: bool) -> Tile | None:
        """The next tile (``UNKNOWN`` if not recorded), or None when the wall is empty."""
        if self.left() <= 0:
            return None
        if replacement:
            self.back += 1
            return self.tiles[self.size - self.back] if self.tiles is not None else UNKNOWN
        self.front += 1
        return self.tiles[self.front - 1] if self.tiles is not None else UNKNOWN

    def known_tiles(self) -> tuple[Tile, ...]:
        if self.dead:
            return (*(self.tiles or ()), *self.dead)
        return self.tiles or ()

    def remaining(self) -> tuple[Tile, ...]:
        """The known tiles not yet drawn (the dead stacks included)."""
        if self.tiles is None:
            return self.dead
        live = self.tiles[self.front : self.size - self.back]
        return (*live, *self.dead) if self.dead else live


@dataclass
class DuplicateWall:
    """Botzone's duplicate format: a wall per seat, every draw from one's own wall."""

    per_seat: int
    players: int
    tiles: tuple[Tile, ...] | None = None
    drawn: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.drawn = [0] * self.players

    def left(self) -> int:
        drawn = 0
        for count in self.drawn:  # sum(), compiled: the builtin's call cost more
            drawn += count
        return self.per_seat * self.players - drawn

    def left_for(self, seat: int) -> int:
        return self.per_seat - self.drawn[seat]

    def can_replace(self, seat: int) -> bool:
        return self.left_for(seat) > 0

    def draw(self, seat: int, replacement: bool) -> Tile | None:
        if self.left_for(seat) <= 0:
            return None
        self.drawn[seat] += 1
        if self.tiles is None:
            return UNKNOWN
        return self.tiles[seat * self.per_seat + self.drawn[seat] - 1]

    def known_tiles(self) -> tuple[Tile, ...]:
        return self.tiles or ()

    def remaining(self) -> tuple[Tile, ...]:
        if self.tiles is None:
            return ()
        return tuple(
            t
            for seat in range(self.players)
            for t in self.tiles[
                seat * self.per_seat + self.drawn[seat] : (seat + 1) * self.per_seat
            ]
        )


Wall = SharedWall | DuplicateWall
