"""Wild tiles on the table (混儿, 精, 财神, 鬼牌): the rule of a variant's TOML, the indicator
that reveals them, and the facts a score request carries.

A variant declares its wilds in a ``[wilds]`` table of its TOML, the keys
:meth:`~paipu.rules.core.wild.WildRule.from_toml` reads (``fixed``, ``indicator``,
``stand_in``, ``claim``, ``discard``, ``chow``, ``pong``, ``concealed_kong``). Where a room
option chooses the wilds, ``option`` names it and ``choices`` gives a table per value (the
other keys are shared by every choice; a value without a choice plays without wilds)::

    [wilds]                 # 广东推倒胡: the room's 鬼牌 mode
    option = "ghost"
    claim = false
    [wilds.choices]
    white = { fixed = ["5z"] }
    flip1 = { indicator = [1] }
    white_flip2 = { fixed = ["5z"], indicator = [1, 2] }

The table's part is :class:`Wilds`, which a variant's
:class:`~paipu.rules.replay.VariantState` composes (or :class:`WildState`, a state that has
nothing else):

* fixed wilds (白板做鬼) are set on :attr:`Table.wilds <paipu.rules.replay.Table.wilds>` from
  the start, and an ``indicator`` event is then refused;
* with indicator steps the ``indicator`` table event (extra ``{"role": "wild"}``) must come
  before the first draw, exactly once; it sets ``Table.wilds`` (the
  :class:`~paipu.rules.core.wild.WildSpec` :mod:`paipu.rules.legal` reads) and every seat's
  waits are worked out again with the wilds. A draw before it is refused.
* The flipped tile **stays in the wall**, face up, and is drawn in its turn like any other
  (天津: "the flipped 混 stack is not skipped"; 常州: the 财神 stack is among the dead
  stacks): the event moves no tile. With the wall in the record, the indicator must be one of
  its tiles; with a counted wall, a copy of it must still be unaccounted for.
* :meth:`Wilds.extra` is the score request's ``extra.wild``: the wild kinds themselves (not
  the indicator), ``[]`` before they are known or when the room plays without.

The indicator event also carries the treasure tile (宝, role ``"bao"``), another mechanic:
:func:`route_indicator` sends each role to its own handler, so that a state may compose
both.

Self-play turns the indicator up with the ``reveal_wilds`` step of the TOML's ``[bot]``
table (:func:`needs_indicator` says whether the options call for one): the wall's last tile
(the tail, where the replacement draws come from).

>>> from paipu.rules.core.tiles import STANDARD
>>> from paipu.rules.tiles import parse_tile
>>> rule = rule_of({"option": "ghost", "choices": {"flip2": {"indicator": [1, 2]}}},
...                STANDARD, "flip2")
>>> rule.spec(parse_tile("9s"))
WildSpec(12s)
>>> rule_of({"option": "ghost", "choices": {"flip2": {"indicator": [1, 2]}}}, STANDARD, "none")
>>> [tile_name(t) for t in indicators_for(rule, (parse_tile("1s"), parse_tile("2s")))]
['9s']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from paipu.rules.core.tiles import TileSet, TileSetError
from paipu.rules.core.wild import WildError, WildRule, WildSpec
from paipu.rules.events import Draw, Event, Indicator
from paipu.rules.registry import VariantError
from paipu.rules.replay import VariantState
from paipu.rules.tiles import Tile, TileError, parse_tile, tile_name, tile_names

if TYPE_CHECKING:
    from paipu.rules.replay import Handler, Table
    from paipu.rules.score import WinFlags
    from paipu.rules.variants import Options, Variant

#: The role of the ``indicator`` event this mechanic handles.
ROLE = "wild"
#: The keys of a ``[wilds]`` table beside :class:`WildRule`'s own.
_CHOICE_KEYS = ("option", "choices")

_TILE_SETS: dict[str, TileSet] = {}
_RULES: dict[tuple[str, str], WildRule | None] = {}


def tile_set_of(variant: Variant) -> TileSet:
    """The variant's :class:`~paipu.rules.core.tiles.TileSet` (its TOML's ``tiles``), read once."""
    known = _TILE_SETS.get(variant.id)
    if known is None:
        try:
            known = TileSet.from_toml(variant.spec.tiles, source=f"{variant.id}.toml: tiles")
        except TileSetError as error:
            raise VariantError(str(error)) from None
        _TILE_SETS[variant.id] = known
    return known


def rule_of(
    raw: Mapping[str, Any], tile_set: TileSet, choice: object = None, source: str = "wilds"
) -> WildRule | None:
    """The wild rule of a ``[wilds]`` table for the option value ``choice`` (when the table
    names an ``option``); None when that value plays without wilds."""
    option = raw.get("option")
    table: Mapping[str, Any] = raw
    if option is not None:
        choices = raw.get("choices", {})
        if not isinstance(choices, Mapping):
            raise WildError(f"{source}: choices must be a table of option value → wilds")
        chosen = choices.get(str(choice))
        if chosen is None:
            return None
        if not isinstance(chosen, Mapping):
            raise WildError(f"{source}.choices.{choice}: a table of wild keys, not {chosen!r}")
        shared = {k: v for k, v in raw.items() if k not in _CHOICE_KEYS}
        table = {**shared, **chosen}
        source = f"{source}.choices.{choice}"
    return WildRule.from_toml(table, tile_set, source=source)


def wild_rule(variant: Variant, options: Options) -> WildRule | None:
    """The variant's wild rule under ``options`` (its TOML's ``[wilds]``), read once per
    option value; None when the variant or the room plays without wilds. A table that
    cannot be meant is a :class:`~paipu.rules.registry.VariantError` naming the key."""
    raw = variant.spec.raw.get("wilds")
    if raw is None:
        return None
    option = raw.get("option")
    if option is not None and option not in options:
        raise VariantError(f"{variant.id}.toml [wilds]: option {option!r} is not an option")
    choice = str(options[option]) if option is not None else ""
    key = (variant.id, choice)
    if key in _RULES:
        return _RULES[key]
    try:
        rule = rule_of(raw, tile_set_of(variant), choice, source=f"{variant.id}.toml [wilds]")
    except WildError as error:
        raise VariantError(str(error)) from None
    _RULES[key] = rule
    return rule


def needs_indicator(variant: Variant, options: Options) -> bool:
    """Whether a hand under ``options`` turns a wild indicator up (self-play's question)."""
    rule = wild_rule(variant, options)
    return rule is not None and rule.needs_indicator


def indicators_for(rule: WildRule, kinds: Sequence[Tile]) -> list[Tile]:
    """The indicators whose wilds are exactly ``kinds`` under ``rule`` (ascending); for a
    rule without indicator steps, ``[]``. A request's ``extra.wild`` is checked with it."""
    if not rule.needs_indicator:
        return []
    wanted = frozenset(kinds)
    return [t for t in rule.tile_set.kinds if rule.spec(t).tiles == wanted]


def spec_of_kinds(
    rule: WildRule | None, kinds: Sequence[Tile], tile_set: TileSet
) -> WildSpec | None:
    """The :class:`WildSpec` a score request's ``extra.wild`` names, checked against the
    room's rule; ``None`` for a hand without wilds. Raises :class:`WildError` when the kinds
    cannot come from the rule (a fixed wild missing, no indicator giving them)."""
    if rule is None:
        if kinds:
            raise WildError(
                f"this room plays without wilds, extra.wild names {' '.join(tile_names(kinds))}"
            )
        return None
    if not rule.needs_indicator:
        spec = rule.spec()
        if frozenset(kinds) != spec.tiles:
            shown = " ".join(tile_names(sorted(spec.tiles)))
            raise WildError(
                f"the wilds of this room are {shown}, extra.wild names {list(tile_names(kinds))}"
            )
        return spec
    if not kinds:
        raise WildError("extra.wild must name the wild kinds of the hand (the indicator's)")
    found = indicators_for(rule, kinds)
    if not found:
        raise WildError(
            f"no indicator makes exactly {' '.join(tile_names(kinds))} wild in this room"
        )
    return rule.spec(found[0])


def kinds_of_extra(extra: Mapping[str, Any]) -> tuple[Tile, ...]:
    """The tiles of a request's ``extra.wild`` (a list of tile names; absent: none)."""
    raw = extra.get("wild", [])
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise WildError(f"extra.wild is a list of tile names, not {raw!r}")
    try:
        return tuple(parse_tile(t) for t in raw)
    except TileError as error:
        raise WildError(f"extra.wild: {error}") from None


def route_indicator(table: Table, routes: Mapping[str, Handler]) -> Handler:
    """The handler of the ``indicator`` event for a state that composes several indicator
    mechanics: each role (``wild``, ``bao``) to its own handler; a role the variant has not
    is refused."""

    def handle(event: Indicator) -> None:
        handler = routes.get(event.role)
        if handler is None:
            roles = ", ".join(sorted(routes)) or "none"
            raise table.fail(
                event, f"{table.variant.id} turns up no {event.role} indicator (roles: {roles})"
            )
        handler(event)

    return handle


class Wilds:
    """The wilds of one hand on the table (see the module docstring): the rule, the
    indicator once turned up, and ``Table.wilds``."""

    def __init__(self, table: Table, rule: WildRule | None) -> None:
        self.table = table
        self.rule = rule
        #: The indicator tile, once turned up.
        self.indicator: Tile | None = None
        if rule is not None and not rule.needs_indicator:
            table.wilds = rule.spec()  # fixed wilds (白板做鬼): from the start

    @property
    def pending(self) -> bool:
        """The hand still waits for its indicator."""
        rule = self.rule
        return rule is not None and rule.needs_indicator and self.indicator is None

    def reveal(self, event: Indicator) -> None:
        """The handler of the ``indicator`` event of role ``wild``."""
        table = self.table
        rule = self.rule
        if event.role != ROLE:
            raise table.fail(event, f"{table.variant.id} turns up no {event.role} indicator")
        if rule is None:
            raise table.fail(event, "this room plays without wilds: no indicator is turned up")
        if not rule.needs_indicator:
            shown = " ".join(tile_names(sorted(rule.fixed)))
            raise table.fail(
                event, f"the wilds are fixed here ({shown}): no indicator is turned up"
            )
        if self.indicator is not None:
            raise table.fail(
                event, f"the wild indicator is already turned up ({tile_name(self.indicator)})"
            )
        if any(s.draws for s in table.seats) or table.discard_count:
            raise table.fail(event, "the wild indicator is turned up before the first draw")
        tile = event.tile
        if tile not in rule.tile_set.kind_set:
            raise table.fail(
                event, f"the indicator {tile_name(tile)} is not a tile of {table.variant.id}"
            )
        known = table.wall.known_tiles()
        if known:
            if tile not in table.wall.remaining():
                raise table.fail(
                    event,
                    f"the indicator {tile_name(tile)} is not in the wall (it stays there, face up)",
                )
        elif table.seen.get(tile, 0) >= rule.tile_set.copies:
            raise table.fail(
                event,
                f"every copy of {tile_name(tile)} is already placed: the indicator is a tile "
                "of the wall",
            )
        self.indicator = tile
        table.wilds = rule.spec(tile)
        for seat in range(table.players):
            table.refresh_waits(seat)
        table.notes.append("wilds:indicator")

    def before(self, event: Event) -> None:
        """A draw before the indicator is turned up is refused."""
        if type(event) is Draw and self.pending:
            raise self.table.fail(event, "the wild indicator is turned up before the first draw")

    def kinds(self) -> tuple[Tile, ...]:
        """The wild kinds of the hand, ascending (none before the indicator)."""
        wilds = self.table.wilds
        return tuple(sorted(wilds.tiles)) if wilds is not None else ()

    def extra(self) -> dict[str, Any]:
        """The score request's ``extra.wild``: the wild kinds' names."""
        return {"wild": tile_names(self.kinds())}

    def held(self, seat: int) -> int:
        """The wilds ``seat`` holds concealed."""
        wilds = self.table.wilds
        if wilds is None:
            return 0
        hand = self.table.seats[seat].hand
        return sum(hand[t] for t in wilds.tiles if t < len(hand))


class WildState(VariantState):
    """A variant state whose only addition is its wilds (a base for a variant's own state):
    the indicator handler, the draw before it refused, ``extra.wild`` on its requests."""

    def __init__(self, table: Table, variant: Variant) -> None:
        super().__init__(table)
        self.wilds = Wilds(table, wild_rule(variant, table.options))

    def handlers(self) -> dict[type[Event], Callable[[Any], None]]:
        return {Indicator: route_indicator(self.table, {ROLE: self.wilds.reveal})}

    def before(self, event: Event) -> bool:
        self.wilds.before(event)
        return False

    def request_extra(
        self, seat: int, tile: Tile, from_seat: int | None, flags: WinFlags
    ) -> tuple[WinFlags, Mapping[str, Any]]:
        return flags, self.wilds.extra()
