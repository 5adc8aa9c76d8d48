-- Clubs: the recorded-only hands (score sheets, 国标小助手 records: docs/clubs.md), sitting
-- by sitting, for the clubs' audit pages; and how many hands of the report have no events
-- (the pages whose analytics need events say so).

-- name: clubs-hands
-- Every recorded-only hand of the report, sitting by sitting (sittings in the order of their
-- first hand, then by id; hands ascending): its variant, time, players, dealer, outcome,
-- the verdict and problems of the ingest's audit, where it came from, and its record (the
-- paipu log line: the claim in `result`, the sheet's own facts in `source.recorded`), from
-- which the page works out the rules' answer again.
SELECT
    r.game, r.hand, r.variant, r.time, r.players, r.dealer, r.outcome, r.verdict,
    h.problems, h.record, h.source_file, h.source_line, h.source_format,
    min(r.ord) OVER (PARTITION BY r.game) AS sitting_ord
FROM report_hands r
JOIN hands h USING (game, hand)
WHERE r.source_kind = 'recorded'
ORDER BY sitting_ord, r.game, r.hand

-- name: clubs-count
-- The hands of the report (hands) and how many of them are recorded-only (recorded).
SELECT
    count(*) AS hands,
    count(*) FILTER (WHERE source_kind = 'recorded') AS recorded
FROM report_hands
