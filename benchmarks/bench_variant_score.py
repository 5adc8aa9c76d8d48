"""Scoring speed of every mahjong variant, on the wins of its own simulated hands.

For each variant asked (default: every variant with a self-play family of mahjong bots),
plays ``--hands`` hands with the bots, replays them, and keeps the score request of every
win the replay scored (the request the table builds: tiles, melds, flags, ``extra``). Then
each of ``--repeats`` passes scores those requests through the full public path
(:func:`paipu.rules.score.score`: the registry, the options, the variant's request checks,
fans and settlement) and the best pass is printed as wins scored per second, with the peak
memory of the process. Times are CPU time (``time.process_time``), steadier than the wall
clock on a shared machine. The requests are cut into ``--repeats`` + 1 disjoint sets: the
first warms the scorer up (the decomposition tables fill on first sight, as in a
long-running process), and each pass scores a set it has never seen, each request once, so
that no cache of recent answers helps.

    .venv/bin/python benchmarks/bench_variant_score.py --hands 1000
    .venv/bin/python benchmarks/bench_variant_score.py --variant tianjin --variant nanchang

Issue 13 asks for at least 20,000 hands per second, compiled (``paipu --version`` says
which engine runs): the target is printed beside each variant.

The replay has scored every request once, so the tables it filled are warm, except where
the self-play emptied them: past :data:`paipu.rules.core.shanten.CACHE_ENTRIES` entries the
loop clears the core's wild tables (``selfplay/loop.py``, ``_settle_heap``), and the
requests replayed before that are then scored cold (a 常州 独卡 test walks new shanten
profiles with wilds: several hundred µs a request). The column ``cleared`` says how many
times that happened during the collection: figures with and without a clearing do not
compare.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from collections.abc import Callable

from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, simulate
from paipu.rules import ENGINE
from paipu.rules.core import shanten as core_shanten
from paipu.rules.record import HandRecord
from paipu.rules.registry import Options, get_variant, variant_ids
from paipu.rules.replay import replay
from paipu.rules.score import ScoreAnswer, ScoreRequest, score


def mahjong_variants() -> list[str]:
    """The variants whose hands the mahjong bots play (zipai is scored by its own path)."""
    out = []
    for variant_id in variant_ids():
        family = get_variant(variant_id).spec.raw.get("bot", {}).get("family")
        if family and family != "zipai":
            out.append(variant_id)
    return out


#: Hands per second issue 13 asks of every variant's scoring, compiled.
TARGET = 20_000

#: Times the core's wild tables were emptied during the last :func:`win_requests`.
cleared = 0


def win_requests(variant_id: str, hands: int, seed: int) -> list[ScoreRequest]:
    """The score requests of the wins of ``hands`` simulated hands of ``variant_id``
    (:data:`cleared` counts the emptyings of the core's wild tables meanwhile)."""
    global cleared  # noqa: PLW0603 (a benchmark's note, read by main)
    cleared = 0
    entries = core_shanten.cache_entries()
    variant = get_variant(variant_id)
    seen: list[tuple[ScoreRequest, ScoreAnswer]] = []
    original: Callable[[ScoreRequest, Options], ScoreAnswer] = variant.replay_score_request

    def recording(request: ScoreRequest, options: Options) -> ScoreAnswer:
        answer = original(request, options)
        if answer.legal:
            seen.append((request, answer))
        return answer

    variant.replay_score_request = recording  # type: ignore[method-assign]
    requests: list[ScoreRequest] = []
    try:
        jobs = game_jobs(variant_id, hands, seed, DEFAULT_PLAYERS, {})
        for lines, _stats in simulate(jobs):
            for line in lines:
                seen.clear()
                now = core_shanten.cache_entries()
                if now < entries:
                    cleared += 1
                outcome = replay(HandRecord.from_json(json.loads(line)))
                entries = core_shanten.cache_entries()
                for win in outcome.wins:
                    for request, _answer in reversed(seen):
                        if (request.seat, request.win_tile, request.from_seat) == (
                            win.seat,
                            win.tile,
                            win.from_seat,
                        ):
                            requests.append(request)
                            break
    finally:
        del variant.replay_score_request
    return requests


def best_rate(requests: list[ScoreRequest], repeats: int) -> float:
    """Requests scored per CPU second: the best of ``repeats`` passes, each over a set of
    requests not scored before (the first set of the cut only warms up)."""
    sets = [requests[k :: repeats + 1] for k in range(repeats + 1)]
    for request in sets[0]:
        score(request)
    best = 0.0
    for chunk in sets[1:]:
        start = time.process_time()
        for request in chunk:
            score(request)
        seconds = time.process_time() - start
        if seconds > 0:
            best = max(best, len(chunk) / seconds)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", help="a variant id (repeatable)")
    parser.add_argument("--hands", type=int, default=1000, help="simulated hands per variant")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3, help="timed passes")
    args = parser.parse_args()
    chosen = args.variant or mahjong_variants()
    print(f"engine: {ENGINE}; {args.hands} simulated hands per variant, best of {args.repeats}")
    print(f"{'variant':<18} {'wins':>6} {'wins/s':>10} {'µs/win':>8} {'target':>8} {'cleared':>8}")
    for variant_id in chosen:
        requests = win_requests(variant_id, args.hands, args.seed)
        if not requests:
            print(f"{variant_id:<18} {0:>6} {'-':>10} {'-':>8} {TARGET:>8,} {cleared:>8}")
            continue
        rate = best_rate(requests, args.repeats)
        met = "" if rate >= TARGET else " (below)"
        print(
            f"{variant_id:<18} {len(requests):>6} {rate:>10,.0f} {1e6 / rate:>8.1f}"
            f" {TARGET:>8,} {cleared:>8}{met}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:,.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
