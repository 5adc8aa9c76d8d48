-- Audit: what a club referee needs to settle a dispute. Hands whose record disagrees with
-- the rules (verdict 'mismatch'): the recorded result against the computed one, fan by fan;
-- and the hands that were rejected, with the rule broken. Recorded-only hands (score
-- sheets, 国标小助手) have no computed result in these tables: the clubs' pages audit them
-- (clubs.sql).

-- name: audit-mismatches
-- One row per mismatched hand, in chronological order, at most $limit: where it came from
-- (file, line, format), the problems in words, the recorded result as JSON text (the
-- record's `result`), and per seat (lists in seat order) the players, the computed deltas
-- and the recorded ones. mismatches_total counts them all.
SELECT
    r.game, r.hand, r.variant, r.time, r.players,
    h.source_file, h.source_line, h.source_format,
    h.problems,
    CAST(json_extract(h.record, '$.result') AS VARCHAR) AS recorded,
    (SELECT list(s.delta ORDER BY s.seat) FROM hand_seats s
        WHERE s.game = r.game AND s.hand = r.hand) AS deltas,
    (SELECT list(s.recorded_delta ORDER BY s.seat) FROM hand_seats s
        WHERE s.game = r.game AND s.hand = r.hand) AS recorded_deltas,
    count(*) OVER () AS mismatches_total
FROM report_hands r
JOIN hands h USING (game, hand)
WHERE r.verdict = 'mismatch' AND r.source_kind = 'events'
ORDER BY r.ord
LIMIT $limit

-- name: audit-computed
-- The computed wins of the mismatched hands and their fans, one row per fan (a win
-- without fans has one row with NULL fan): hand, winning seat, from_seat (NULL:
-- self-draw), tile, total, points, fan id, names, points each, count. In chronological
-- order, then seat, then highest points first.
SELECT
    w.game, w.hand, w.seat, w.from_seat, w.tile, w.total, w.points,
    f.fan, f.name_zh, f.name_en, f.points AS fan_points, f.count
FROM wins w
JOIN report_hands r USING (game, hand)
LEFT JOIN win_fans f
    ON f.game = w.game AND f.hand = w.hand AND f.seat = w.seat AND f.seq IS NOT DISTINCT FROM w.seq
WHERE r.verdict = 'mismatch' AND r.source_kind = 'events'
ORDER BY r.ord, w.seat, f.points DESC, f.fan

-- name: audit-rejects
-- Every rejected hand of the report, at most $limit: the file and line where it starts, the
-- game, hand, variant and players when they could be read, the event index and the reason
-- (the rule broken, with the event). Filtered by the session variables report_variant and
-- report_player (the report's filters, see overview.sql) where the reject knows them (a hand
-- rejected before its variant or players could be read is kept under every filter). Sorted by file and line; rejects_total counts them all.
SELECT
    j.source, j.line, j.game, j.hand, j.variant, j.players, j.event_index, j.reason,
    count(*) OVER () AS rejects_total
FROM rejects j
WHERE (getvariable('report_variant') IS NULL OR j.variant IS NULL
            OR j.variant = getvariable('report_variant'))
  AND (getvariable('report_player') IS NULL OR j.players IS NULL
            OR list_contains(j.players, getvariable('report_player')))
ORDER BY j.source, j.line, j.game, j.hand
LIMIT $limit
