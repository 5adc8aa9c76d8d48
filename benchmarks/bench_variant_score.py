"""Scoring speed of every mahjong variant, on the wins of its own simulated hands.

For each variant asked (default: every variant with a self-play family of mahjong bots),
plays ``--hands`` hands with the bots, replays them, and keeps the score request of every
win the replay scored (the request the table builds: tiles, melds, flags, ``extra``); then
as many again of ``--warm-hands`` other hands (another seed), for the warm-up. Every table
of the engine is then emptied, and the requests go through the full public path
(:func:`paipu.rules.score.score`: the registry, the options, the variant's request checks,
fans and settlement), each once, so that no table filled by the replay and no cache of
recent answers helps:

* **cold**: the first of ``--repeats`` + 1 disjoint sets of the timed requests, scored on
  empty tables (a process that has just started: the decomposition tables fill on first
  sight);
* **warm**: the warm-up requests are scored, then each remaining set, never seen before,
  is timed, and the best pass is printed: a long-running scorer (an ingest, a club's
  audit), whose tables were filled by *other* hands of the same kind, as the summary of
  docs/benchmarks.md defines it and as ``bench_score.py`` times MCR.

Wins scored per second, CPU time (``time.process_time``, steadier than the wall clock on a
shared machine; the collection's objects frozen out of the garbage collector's sight, as
they are not the scorer's, and the garbage collected before each timed set), with the
entries of the core's wild tables after each stage and the peak memory of the process.

    .venv/bin/python benchmarks/bench_variant_score.py --hands 1000
    .venv/bin/python benchmarks/bench_variant_score.py --variant tianjin --variant nanchang

Issue 13 asks for at least 20,000 hands per second, compiled (``paipu --version`` says
which engine runs): the target is printed beside the warm figure. The self-play bounds the
core's wild tables while it collects (past :data:`paipu.rules.core.shanten.CACHE_ENTRIES`
entries ``selfplay/loop.py``'s ``_settle_heap`` empties them); since every table is emptied
after the collection, where that fell does not change the figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import time
from collections.abc import Callable

from paipu.pipeline.simulate import DEFAULT_PLAYERS, game_jobs, simulate
from paipu.rules import ENGINE
from paipu.rules import shanten as plain_shanten
from paipu.rules.core import decompose as core_decompose
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


def win_requests(variant_id: str, hands: int, seed: int) -> list[ScoreRequest]:
    """The score requests of the wins of ``hands`` simulated hands of ``variant_id``."""
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
                outcome = replay(HandRecord.from_json(json.loads(line)))
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


def forget_tables() -> None:
    """Empty every table of the engine: the core's wild tables and walks, and the plain
    shanten tables (the variants' scorers keep no cache of recent answers)."""
    core_shanten.clear_caches()
    core_decompose.clear_caches()
    plain_shanten.clear_caches()


def rate(requests: list[ScoreRequest]) -> float:
    """Requests scored per CPU second, each scored once (the garbage of what ran before
    collected first)."""
    gc.collect()
    start = time.process_time()
    for request in requests:
        score(request)
    seconds = time.process_time() - start
    return len(requests) / seconds if seconds > 0 else 0.0


def cold_and_warm(
    timed: list[ScoreRequest], warm_up: list[ScoreRequest], repeats: int
) -> tuple[float, float, int, int]:
    """Cold and warm rates (see the module's doc), and the wild tables' entries after the
    cold pass and at the end."""
    sets = [timed[k :: repeats + 1] for k in range(repeats + 1)]
    forget_tables()
    # the self-play's leftovers and the requests are the benchmark's, not the scorer's: out
    # of the collector's sight (a full collection over them, hundreds of MiB, took longer
    # than a whole timed set and decided the figures)
    gc.collect()
    gc.freeze()
    cold = rate(sets[0])
    after_cold = core_shanten.cache_entries()
    for request in warm_up:
        score(request)
    warm = max(rate(chunk) for chunk in sets[1:])
    gc.unfreeze()
    return cold, warm, after_cold, core_shanten.cache_entries()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", help="a variant id (repeatable)")
    parser.add_argument("--hands", type=int, default=1000, help="simulated hands timed")
    parser.add_argument(
        "--warm-hands", type=int, default=3000, help="other simulated hands, the warm-up"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3, help="warm passes")
    args = parser.parse_args()
    chosen = args.variant or mahjong_variants()
    print(
        f"engine: {ENGINE}; {args.hands} simulated hands timed and {args.warm_hands} others"
        f" for the warm-up per variant; warm: best of {args.repeats}"
    )
    print(
        f"{'variant':<18} {'wins':>6} {'cold/s':>9} {'warm/s':>9} {'µs/win':>7}"
        f" {'target':>7} {'entries':>15}"
    )
    for variant_id in chosen:
        timed = win_requests(variant_id, args.hands, args.seed)
        warm_up = win_requests(variant_id, args.warm_hands, args.seed + 1_000)
        if len(timed) <= args.repeats:
            print(f"{variant_id:<18} {len(timed):>6} {'-':>9} {'-':>9}")
            continue
        cold, warm, after_cold, after = cold_and_warm(timed, warm_up, args.repeats)
        met = "" if warm >= TARGET else " (below)"
        print(
            f"{variant_id:<18} {len(timed):>6} {cold:>9,.0f} {warm:>9,.0f} {1e6 / warm:>7.1f}"
            f" {TARGET:>7,} {after_cold:>7,}→{after:<7,}{met}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"peak memory: {peak:,.0f} MiB; entries: the core's wild tables after the cold"
        " pass → at the end"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
