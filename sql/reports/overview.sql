-- Overview: what the report covers. Every report query reads the hands through the
-- temporary table `report_hands` that `report-selection` creates first, so that the
-- filters of `paipu report` (--variant, --player, --since, --until) are applied in one place. The
-- rejected hands are filtered where they are read (overview-totals, audit-rejects) by the
-- session variables report_variant and report_player, which the writer sets with the same
-- filters (SET VARIABLE; NULL: no filter): a reject is left out when its variant is known and
-- is not report_variant, or its players are known and do not include report_player; a
-- reject whose variant or players could not be read is kept under every filter, and rejects
-- have no time, so --since does not apply to them.

-- name: report-selection
-- Creates the temporary table `report_hands`: the hands the report covers, one row each,
-- with `ord`, their chronological rank (by time, hands without a time last, then by game
-- and hand). Parameters (NULL: no filter): $variant, a variant id; $player, keep only the
-- hands this player sat in; $since, keep only hands with a recorded time on or after it;
-- $until, keep only hands with a recorded time on or before it (the writer passes the end
-- of the day for a date); with either, hands without a time are left out, as they cannot be
-- dated. `source_kind` says which hands are recorded-only (no events: no replay, no
-- discards).
CREATE OR REPLACE TEMP TABLE report_hands AS
SELECT
    h.game, h.hand, h.variant, h.time, h.outcome, h.verdict, h.players, h.dealer,
    h.source_kind,
    row_number() OVER (ORDER BY h.time NULLS LAST, h.game, h.hand) AS ord
FROM hands h
WHERE ($variant IS NULL OR h.variant = $variant)
  AND ($player IS NULL OR list_contains(h.players, $player))
  AND ($since IS NULL OR h.time >= CAST($since AS TIMESTAMP))
  AND ($until IS NULL OR h.time <= CAST($until AS TIMESTAMP))

-- name: overview-totals
-- One row: hands, games, players (distinct names), variants, the first and last hand time
-- (NULL when no hand has one), hands without a time, hands won / drawn / aborted, hands
-- whose record disagrees with the rules (verdict mismatch), and rejected hands (filtered by
-- report_variant and report_player where the reject knows them, as in audit-rejects).
SELECT
    count(*) AS hands,
    count(DISTINCT r.game) AS games,
    (SELECT count(DISTINCT s.player) FROM hand_seats s JOIN report_hands USING (game, hand))
        AS players,
    count(DISTINCT r.variant) AS variants,
    min(r.time) AS first_time,
    max(r.time) AS last_time,
    count(*) FILTER (WHERE r.time IS NULL) AS untimed,
    count(*) FILTER (WHERE r.outcome = 'win') AS won,
    count(*) FILTER (WHERE r.outcome = 'draw') AS drawn,
    count(*) FILTER (WHERE r.outcome = 'abort') AS aborted,
    count(*) FILTER (WHERE r.verdict = 'mismatch') AS mismatched,
    (SELECT count(*) FROM rejects j
        WHERE (getvariable('report_variant') IS NULL OR j.variant IS NULL
            OR j.variant = getvariable('report_variant'))
          AND (getvariable('report_player') IS NULL OR j.players IS NULL
            OR list_contains(j.players, getvariable('report_player')))
    ) AS rejected
FROM report_hands r

-- name: overview-variants
-- One row per variant: hands, games, players, and hands by outcome (won, drawn, aborted)
-- and by verdict (ok, mismatch, unrecorded). Sorted by variant id.
SELECT
    r.variant,
    count(*) AS hands,
    count(DISTINCT r.game) AS games,
    (SELECT count(DISTINCT s.player) FROM hand_seats s JOIN report_hands x USING (game, hand)
        WHERE x.variant = r.variant) AS players,
    count(*) FILTER (WHERE r.outcome = 'win') AS won,
    count(*) FILTER (WHERE r.outcome = 'draw') AS drawn,
    count(*) FILTER (WHERE r.outcome = 'abort') AS aborted,
    count(*) FILTER (WHERE r.verdict = 'ok') AS ok,
    count(*) FILTER (WHERE r.verdict = 'mismatch') AS mismatched,
    count(*) FILTER (WHERE r.verdict = 'unrecorded') AS unrecorded
FROM report_hands r
GROUP BY r.variant
ORDER BY r.variant

-- name: overview-players
-- One row per player: hands and games played and the variants played (comma-separated, in
-- order): the counts that mean the same in every variant; points are in each variant's own
-- units and are never summed across variants (winrates-player-variants has them per
-- variant). Sorted by hands played (most first), then name.
SELECT
    s.player,
    count(*) AS hands,
    count(DISTINCT s.game) AS games,
    string_agg(DISTINCT r.variant, ', ' ORDER BY r.variant) AS variants
FROM hand_seats s
JOIN report_hands r USING (game, hand)
GROUP BY s.player
ORDER BY hands DESC, s.player
