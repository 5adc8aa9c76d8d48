-- Rankings: per variant, each player's placements over the placed games of
-- `report_placements` (see standings.sql: one computation for standings, rankings and
-- table-mates) beside their rates over the hands of `report_hands`, and each player's
-- percentile against the population of that variant on every figure, as amae-koromo shows
-- it. Never across variants: a three-player zipai table and a four-player MCR table have
-- different base rates, and their points different units.

-- name: ranking-players
-- One row per variant and player with at least $min_games placed games (the population of
-- the variant's ranking): seats, games, mean_place (the mean of the places, 1 + players
-- scoring strictly more), firsts / seconds / thirds / fourths (games at each place; shared
-- places count for each player sharing them) and their shares first_rate … fourth_rate,
-- last_rate (share of games at the last place, `seats`), mean_standard_score (标准分 per
-- game; NULL for three players), mean_score (比赛分 per game, in the variant's units);
-- over the player's hands of the variant: hands, wins, self_drawn, deal_ins, win_rate,
-- self_draw_share (NULL without wins), deal_in_rate, mean_delta (points per hand).
-- `population` = the ranked players of the variant; every `<figure>_pct` is its
-- percent_rank in the population (0 = the lowest value, 1 = the highest; ties share the
-- lower rank; NULL where the figure is). Sorted by variant, mean_place, games (more
-- first), player.
WITH placed AS (
    SELECT
        variant, player,
        max(seats) AS seats,
        count(*) AS games,
        avg(place) AS mean_place,
        count(*) FILTER (WHERE place = 1) AS firsts,
        count(*) FILTER (WHERE place = 2) AS seconds,
        count(*) FILTER (WHERE place = 3) AS thirds,
        count(*) FILTER (WHERE place = 4) AS fourths,
        count(*) FILTER (WHERE place = seats) AS lasts,
        avg(standard_score12) / 12.0 AS mean_standard_score,
        avg(score) AS mean_score
    FROM report_placements
    GROUP BY variant, player
    HAVING count(*) >= $min_games
),
seat_wins AS (
    SELECT game, hand, seat, bool_or(self_drawn) AS self_drawn
    FROM wins
    GROUP BY game, hand, seat
),
rates AS (
    SELECT
        r.variant, s.player,
        count(*) AS hands,
        count(*) FILTER (WHERE s.won) AS wins,
        count(*) FILTER (WHERE s.won AND w.self_drawn) AS self_drawn,
        count(*) FILTER (WHERE s.dealt_in) AS deal_ins,
        avg(s.delta) AS mean_delta
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
    LEFT JOIN seat_wins w ON w.game = s.game AND w.hand = s.hand AND w.seat = s.seat
    GROUP BY r.variant, s.player
),
ranked AS (
    SELECT
        p.*,
        p.firsts / p.games AS first_rate,
        p.seconds / p.games AS second_rate,
        p.thirds / p.games AS third_rate,
        p.fourths / p.games AS fourth_rate,
        p.lasts / p.games AS last_rate,
        x.hands, x.wins, x.self_drawn, x.deal_ins,
        x.wins / x.hands AS win_rate,
        x.self_drawn / nullif(x.wins, 0) AS self_draw_share,
        x.deal_ins / x.hands AS deal_in_rate,
        x.mean_delta
    FROM placed p
    JOIN rates x USING (variant, player)
)
SELECT
    *,
    count(*) OVER (PARTITION BY variant) AS population,
    percent_rank() OVER (PARTITION BY variant ORDER BY mean_place) AS mean_place_pct,
    percent_rank() OVER (PARTITION BY variant ORDER BY first_rate) AS first_rate_pct,
    percent_rank() OVER (PARTITION BY variant ORDER BY last_rate) AS last_rate_pct,
    CASE WHEN mean_standard_score IS NOT NULL THEN
        percent_rank() OVER (PARTITION BY variant, mean_standard_score IS NULL
                             ORDER BY mean_standard_score)
    END AS mean_standard_score_pct,
    percent_rank() OVER (PARTITION BY variant ORDER BY mean_score) AS mean_score_pct,
    percent_rank() OVER (PARTITION BY variant ORDER BY win_rate) AS win_rate_pct,
    CASE WHEN self_draw_share IS NOT NULL THEN
        percent_rank() OVER (PARTITION BY variant, self_draw_share IS NULL
                             ORDER BY self_draw_share)
    END AS self_draw_share_pct,
    percent_rank() OVER (PARTITION BY variant ORDER BY deal_in_rate) AS deal_in_rate_pct,
    percent_rank() OVER (PARTITION BY variant ORDER BY mean_delta) AS mean_delta_pct
FROM ranked
ORDER BY variant, mean_place, games DESC, player
