"""The rows of a replayed hand: the record line written from encoded events, rollback."""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path

import pytest

from paipu.parsers import Parsed, parse_any
from paipu.parsers.paipu import dumps
from paipu.pipeline import rows as rows_module
from paipu.pipeline.engines import DaskEngine, LocalEngine
from paipu.pipeline.ingest import (
    BATCH_HANDS,
    TAIL_BATCH_HANDS,
    Chunk,
    Loader,
    load_threads,
    rows_for,
)
from paipu.pipeline.rows import TABLES, RowBuffer, encode_event, encode_events, record_text
from paipu.rules.events import decode

ROOT = Path(__file__).resolve().parents[2]


def _parsed(folder: Path) -> list[Parsed]:
    return [
        r
        for path in sorted(p for p in folder.rglob("*") if p.is_file())
        for r in parse_any(path)
        if isinstance(r, Parsed)
    ]


def test_the_record_line_is_exactly_the_canonical_dump(botzone_dir: Path) -> None:
    """Real Botzone hands and the bundled hands of every variant (their events, extras,
    rules and results): the line joined around the cached events is :func:`dumps`."""
    parsed = _parsed(botzone_dir) + _parsed(ROOT / "data")
    variants = {p.record.variant for p in parsed}
    assert len(parsed) > 100 and len(variants) >= 5
    for item in parsed:
        events = encode_events(item.record.events)
        assert events == [encode_event(e) for e in item.record.events]
        assert record_text(item.record, events) == dumps(item.record)


def test_the_record_line_with_rules_that_hold_an_empty_events_list(botzone_dir: Path) -> None:
    """Rules with a nested ``"events": []`` (the one text before the hand's own events
    that could be taken for them), none, or others: still exactly :func:`dumps`."""
    record = _parsed(botzone_dir)[0].record
    for rules in ({"x": {"events": []}}, {"events": []}, {}, {"wall": "duplicate"}):
        changed = dataclasses.replace(record, rules=rules)
        assert record_text(changed, encode_events(changed.events)) == dumps(changed)


def test_an_event_encodes_as_its_row_and_its_array() -> None:
    win = decode(["win", 1, "6p", {"from": 2}])
    row, text = encode_event(win)
    assert row == ("win", 1, "6p", None, 2, None)
    assert text == '["win", 1, "6p", {"from": 2}]'
    assert encode_event(win) is encode_event(decode(["win", 1, "6p", {"from": 2}]))
    chi = decode(["chi", 2, ["4s", "5s", "6s"]])
    assert encode_event(chi)[0] == ("chi", 2, None, ["4s", "5s", "6s"], None, None)


def test_events_are_looked_up_by_identity_and_by_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same event object, an equal one and a new one each get their own encoding,
    also after the identity cache was emptied for being full."""
    monkeypatch.setattr(rows_module, "EVENT_CACHE_SIZE", 3)
    draw = decode(["draw", 0, "1m"])
    hand = [draw, draw, decode(["draw", 0, "1m"]), decode(["discard", 0, "9p"])]
    for _ in range(3):
        encoded = encode_events(hand)
        assert encoded == [encode_event(e) for e in hand]
        assert encoded[3] == (("discard", 0, "9p", None, None, None), '["discard", 0, "9p"]')
        hand = [*hand, decode(["discard", 1, f"{len(hand) % 9 + 1}s"])]
    assert len(rows_module._pinned) <= 3 + len(hand)


def test_rollback_drops_every_row_of_the_hand_that_failed(botzone_dir: Path) -> None:
    first, second = _parsed(botzone_dir)[:2]
    rows = RowBuffer()
    rows_for(first, "botzone-text", rows)
    before = {t: {n: list(v) for n, v in rows.columns[t].items()} for t in TABLES}
    mark = rows.mark()
    rows_for(second, "botzone-text", rows)
    assert rows.rows("events") > len(before["events"]["seq"])
    rows.rollback(mark)
    after = {t: {n: list(v) for n, v in rows.columns[t].items()} for t in TABLES}
    assert after == before
    assert (rows.hands, rows.rejected) == (1, 0)


def test_the_load_leaves_the_workers_their_cores() -> None:
    """DuckDB loads with the cores this machine's workers leave (one at least); the
    workers of a remote cluster leave it all of them."""
    cores = os.cpu_count() or 1
    assert load_threads(LocalEngine(cores)) == 1
    assert load_threads(LocalEngine(cores + 4)) == 1
    assert load_threads(DaskEngine(None, cores)) == 1
    assert load_threads(DaskEngine("tcp://elsewhere:8786", cores)) == cores


def test_batches_end_by_the_input_alone_and_the_last_is_small(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Batches of BATCH_HANDS, then, near the end of the input, each as large as what is
    still to come (at least TAIL_BATCH_HANDS): the batch left after the last chunk is
    small. Where they end depends only on the chunks' hands and sizes."""
    loaded: list[int] = []
    monkeypatch.setattr(
        Loader, "_load", lambda self, pending, keys: loaded.append(sum(c.hands for c in pending))
    )

    def batches(expected: int) -> list[int]:
        loaded.clear()
        loader = Loader(None, expected=expected)  # type: ignore[arg-type]  # not loaded
        for i in range(26):  # 26 chunks of 250 hands, 1,000 characters each
            keys = [(f"g{i}", h) for h in range(250)]
            loader.add(Chunk(shards={}, keys=keys, hands=250), 1_000)
        loader.flush()
        return list(loaded)

    assert BATCH_HANDS == 2000 and TAIL_BATCH_HANDS == 250
    assert batches(0) == [2000, 2000, 2000, 500]  # the size unknown: as before
    # known: the third batch once it holds what is still to come (1,250 of 1,250), …
    assert batches(26_000) == [2000, 2000, 1250, 750, 250, 250]
    assert batches(26_000) == [2000, 2000, 1250, 750, 250, 250]


def test_a_batch_that_fails_on_the_thread_stops_the_ones_queued_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Batches queue behind the one loading; the first error is raised and no batch after
    it is loaded."""
    loaded: list[str] = []
    gate = threading.Event()

    def load(self: Loader, pending: list[Chunk], keys: object) -> None:
        if self._stop:
            return
        gate.wait(5)
        game = pending[0].keys[0][0]
        if game == "bad":
            raise RuntimeError("the batch failed")
        loaded.append(game)

    monkeypatch.setattr(Loader, "_load", load)
    loader = Loader(None, background=True)  # type: ignore[arg-type]  # not loaded
    with pytest.raises(RuntimeError, match="the batch failed"), loader:
        for game in ("first", "bad", "after"):
            loader.add(Chunk(shards={}, keys=[(game, 0)], hands=1))
            loader.flush()  # queued: the first batch is still waiting at the gate
        assert len(loader._loading) == 3
        gate.set()
    assert loaded == ["first"]


def test_the_threads_set_after_the_map_apply_in_turn_on_the_load_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Loader.set_threads` runs on the load thread after the batches queued before it
    (the batches after it load with the new setting); without a thread, at once."""
    import duckdb

    threads = "SELECT current_setting('threads')"
    seen: list[int] = []

    def load(self: Loader, pending: list[Chunk], keys: object) -> None:
        seen.append(self.con.execute(threads).fetchone()[0])

    monkeypatch.setattr(Loader, "_load", load)
    con = duckdb.connect()
    con.execute("SET threads = 1")
    with Loader(con, background=True) as loader:
        for game, count in (("a", 2), ("b", 3)):
            loader.add(Chunk(shards={}, keys=[(game, 0)], hands=1))
            loader.flush()
            loader.set_threads(count)
    assert seen == [1, 2]
    assert con.execute(threads).fetchone()[0] == 3
    Loader(con).set_threads(1)
    assert con.execute(threads).fetchone()[0] == 1
