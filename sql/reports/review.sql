-- Decision review (复盘, `paipu review`): the hands to review, read from the database, and
-- the sums of the per-discard review rows. Those rows are computed on demand by replaying
-- the records (pipeline/review.py); the sums run over them as the relation
-- `discard_reviews` (the rows of one review, given to an in-memory database, with the
-- columns of the table of sql/schema/003_review.sql, where `--save` keeps them; one row
-- per discard: efficiency against the best discard, danger taken; see docs/reports.md,
-- "Decision review").

-- name: review-hands
-- The hands a review replays: game, hand, variant and record (the paipu log line) of every
-- hand in which $player sat (every hand when $player is NULL), of $variant only when it is
-- set, in game and hand order.
SELECT h.game, h.hand, h.variant, h.record
FROM hands h
WHERE ($player IS NULL OR list_contains(h.players, $player))
  AND ($variant IS NULL OR h.variant = $variant)
  AND h.record IS NOT NULL
ORDER BY h.game, h.hand

-- name: review-summary
-- One row per player and variant of `discard_reviews`, by player then variant: discards;
-- reviewed (those with an efficiency measure: not zipai); efficient (the share of reviewed
-- discards as efficient as the best); avg_loss (live useful tiles given up per reviewed
-- discard); backward (the share that raised the shanten against the best, 退向听); exposed
-- (the share made while some opponent was ready by shape); dangerous (the share that
-- completed a ready opponent's hand: the true danger); danger_when_exposed (dangerous
-- among the exposed); declared_exposed (the share made while an opponent had declared
-- ready, 报听); deal_ins (discards won on, 放铳); avoidable (deal-ins where a safe discard
-- existed; NULL where nothing was reviewed for efficiency, as in zipai, whose review does not
-- try the other discards).
SELECT
    player,
    variant,
    count(*) AS discards,
    count(loss) AS reviewed,
    avg(efficient::INTEGER) AS efficient,
    avg(loss) AS avg_loss,
    avg((shanten > best_shanten)::INTEGER) AS backward,
    avg((ready_opponents > 0)::INTEGER) AS exposed,
    avg(dangerous::INTEGER) AS dangerous,
    avg(dangerous::INTEGER) FILTER (WHERE ready_opponents > 0) AS danger_when_exposed,
    avg((declared_opponents > 0)::INTEGER) AS declared_exposed,
    count(*) FILTER (WHERE won_on) AS deal_ins,
    CASE WHEN count(loss) > 0 THEN count(*) FILTER (WHERE won_on AND safe_existed) END
        AS avoidable
FROM discard_reviews
GROUP BY player, variant
ORDER BY player, variant

-- name: review-worst
-- The $limit discards of `discard_reviews` that gave up the most live useful tiles, the
-- largest loss first (then game, hand, event): game, hand, seq, variant, turn, the tile,
-- the best discards, shanten and live useful tiles of both, the loss and whether it was
-- dangerous or won on.
SELECT game, hand, seq, variant, turn, tile, best, shanten, best_shanten, live, best_live,
       loss, dangerous, won_on
FROM discard_reviews
WHERE loss IS NOT NULL
ORDER BY loss DESC, game, hand, seq
LIMIT $limit

-- name: review-forget
-- Before `paipu review --save` keeps a review's rows in discard_reviews: forget the rows it
-- replaces, those of $player (every player's when NULL) in $variant (every variant when
-- NULL), the hands the review replays.
DELETE FROM discard_reviews
WHERE ($player IS NULL OR player = $player)
  AND ($variant IS NULL OR variant = $variant)

-- name: review-table-exists
-- Whether the database has the table discard_reviews (a database made before
-- sql/schema/003_review.sql has not, until its next ingest or `paipu review --save`).
SELECT count(*) > 0 AS present
FROM duckdb_tables()
WHERE table_name = 'discard_reviews' AND NOT temporary

-- name: review-report-players
-- The stored review (`paipu review --save`) summed per player and variant over the hands
-- of the report (`report_hands`), for the player pages: discards reviewed; efficient (the
-- share as efficient as the best; NULL for zipai, which has no efficiency); avg_loss (live
-- useful tiles given up per discard); dangerous (the share that completed a ready
-- opponent's hand); danger_when_exposed (the same among discards made while an opponent
-- was ready by shape); deal_ins; avoidable (deal-ins a safe discard would have avoided;
-- NULL where nothing was reviewed for efficiency). Only rows of the record as it is now
-- (a hand ingested again with another record has no stored review).
SELECT
    d.player,
    d.variant,
    count(*) AS discards,
    avg(d.efficient::INTEGER) AS efficient,
    avg(d.loss) AS avg_loss,
    avg(d.dangerous::INTEGER) AS dangerous,
    avg(d.dangerous::INTEGER) FILTER (WHERE d.ready_opponents > 0) AS danger_when_exposed,
    count(*) FILTER (WHERE d.won_on) AS deal_ins,
    CASE WHEN count(d.loss) > 0 THEN count(*) FILTER (WHERE d.won_on AND d.safe_existed) END
        AS avoidable
FROM discard_reviews d
JOIN report_hands r ON r.game = d.game AND r.hand = d.hand
JOIN hands h ON h.game = d.game AND h.hand = d.hand AND md5(h.record) = d.record_md5
GROUP BY d.player, d.variant
ORDER BY d.player, d.variant
