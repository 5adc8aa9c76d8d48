-- Placements and competition standings: the one computation behind the standings page,
-- `paipu standings`, the ranking pages and the table-mates page. A game (`hands.game`) is a
-- sitting (一局 of 国标小助手, a row group `sitting` of a score sheet): its players' game
-- score (比赛分) is the sum of their deltas over all the game's hands (penalties are in the
-- deltas; drawn and timed-out hands add nothing else), and their places follow from it.
-- The computation is written once, in `report-placements`, which makes the temporary
-- table `report_placements` right after `report-selection` (paipu.pipeline.report.select);
-- every other query here and in rankings.sql and tablemates.sql reads that table. It reads
-- `hands` and `hand_seats` only (no events), so recorded-only hands (a score sheet's, a
-- 国标小助手 record's) count exactly as replayed ones. A game is placed when the report
-- covers any of its hands (report_hands), on all its hands; it is *placeable* when it has one variant, every hand
-- has the same number of seats, no name sits at two seats of a hand, and the same players
-- sit throughout (as many names as seats). Botzone's bots (one name at four seats) and a
-- sitting with a substitute are left out of placements, and counted (`games-unplaced`).
--
-- Ties (国标小助手 RankToStandardScore): `place` = 1 + the players with a strictly higher
-- score (tied players share it); 标准分 is the mean of the points of the places the tied
-- players span, on the competition scale 4 / 2 / 1 / 0 for four players, kept in twelfths
-- (48 / 24 / 12 / 0) so that every sum is exact: a tie for 1st 3 each, 2nd-3rd 1.5, 3rd-4th
-- 0.5, 1st-3rd 2⅓, 2nd-4th 1, all four 1.75; the four always add up to 7 (84 twelfths).
-- Three-player tables (zipai) have places but no 标准分 (NULL).

-- name: report-placements
-- Creates the temporary table `report_placements`: one row per placeable game and player
-- with the variant, seats (players at the table), the game's first and last hand time
-- (`started`, `ended`), hands, the player's game score `score` (比赛分), `place` (1 + the
-- players scoring strictly more), `tied` (players sharing that score, the player
-- included) and `standard_score12` (标准分 in twelfths; NULL unless four players).
CREATE OR REPLACE TEMP TABLE report_placements AS
WITH covered AS (
    SELECT DISTINCT game FROM report_hands
),
shape AS (
    SELECT s.game, s.hand, count(*) AS seats, count(DISTINCT s.player) AS names
    FROM hand_seats s
    WHERE s.game IN (SELECT game FROM covered)
    GROUP BY s.game, s.hand
),
games AS (
    SELECT
        h.game,
        min(h.variant) AS variant,
        count(DISTINCT h.variant) AS variants,
        min(x.seats) AS seats,
        max(x.seats) AS max_seats,
        bool_and(x.names = x.seats) AS distinct_names,
        count(*) AS hands,
        min(h.time) AS started,
        max(h.time) AS ended
    FROM hands h
    JOIN shape x USING (game, hand)
    GROUP BY h.game
),
scores AS (
    SELECT s.game, s.player, sum(s.delta)::BIGINT AS score
    FROM hand_seats s
    WHERE s.game IN (SELECT game FROM covered)
    GROUP BY s.game, s.player
),
placeable AS (
    SELECT g.*
    FROM games g
    JOIN (SELECT game, count(*) AS players FROM scores GROUP BY game) p USING (game)
    WHERE g.variants = 1 AND g.seats = g.max_seats AND g.distinct_names
      AND p.players = g.seats
),
placed AS (
    SELECT
        g.variant, g.game, g.seats, g.started, g.ended, g.hands, s.player, s.score,
        rank() OVER (PARTITION BY s.game ORDER BY s.score DESC) AS place,
        count(*) OVER (PARTITION BY s.game, s.score) AS tied
    FROM scores s
    JOIN placeable g USING (game)
)
SELECT
    *,
    CASE WHEN seats = 4 THEN
        (list_sum(list_slice([48, 24, 12, 0], place, place + tied - 1)) // tied)::INTEGER
    END AS standard_score12
FROM placed

-- name: game-placements
-- Every placed game and player of `report_placements`, with `standard_score` (标准分, the
-- twelfths ÷ 12). Sorted by variant, first hand time (untimed games last), game, place,
-- player.
SELECT
    variant, game, seats, started, ended, hands, player, score, place, tied,
    standard_score12, standard_score12 / 12.0 AS standard_score
FROM report_placements
ORDER BY variant, started NULLS LAST, game, place, player

-- name: games-unplaced
-- Per variant: the games the report covers (`games`), how many are placed, and how many
-- could not be (`unplaced`: a name at two seats of a hand, players or seats changing
-- within the game, or several variants under one game id). Sorted by variant.
SELECT
    r.variant,
    count(DISTINCT r.game) AS games,
    count(DISTINCT p.game) AS placed,
    count(DISTINCT r.game) - count(DISTINCT p.game) AS unplaced
FROM report_hands r
LEFT JOIN (SELECT DISTINCT game FROM report_placements) p USING (game)
GROUP BY r.variant
ORDER BY r.variant

-- name: standings
-- The competition standings over every placed four-player game, per variant, ordered as
-- the MCR competition rules order them (国标小助手's competition module,
-- CompetitionRound::sortPlayers): Σ 标准分 (more first), then Σ 比赛分, then the number of
-- 1st places, of 2nd, of 3rd, of 4th places (more first, as coded there), then the best
-- single game score. Players equal on every key share the `place` (paipu has no
-- registration number for the last tie-break) and are listed by name. Columns: variant,
-- place, player, games, standard_score12 and standard_score (Σ 标准分), score (Σ 比赛分),
-- firsts, seconds, thirds, fourths (games at each place; a shared place counts for each
-- player sharing it, as 国标小助手 counts them), best (the best game score), and the
-- means per game: mean_standard_score, mean_score.
WITH totals AS (
    SELECT
        variant, player,
        count(*) AS games,
        sum(standard_score12)::BIGINT AS standard_score12,
        sum(score)::BIGINT AS score,
        count(*) FILTER (WHERE place = 1) AS firsts,
        count(*) FILTER (WHERE place = 2) AS seconds,
        count(*) FILTER (WHERE place = 3) AS thirds,
        count(*) FILTER (WHERE place = 4) AS fourths,
        max(score) AS best
    FROM report_placements
    WHERE seats = 4
    GROUP BY variant, player
)
SELECT
    variant,
    rank() OVER (
        PARTITION BY variant
        ORDER BY standard_score12 DESC, score DESC, firsts DESC, seconds DESC, thirds DESC,
                 fourths DESC, best DESC
    ) AS place,
    player, games, standard_score12,
    standard_score12 / 12.0 AS standard_score,
    score, firsts, seconds, thirds, fourths, best,
    standard_score12 / 12.0 / games AS mean_standard_score,
    score / games AS mean_score
FROM totals
ORDER BY variant, place, player
