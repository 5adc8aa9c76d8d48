-- Win rates. A "hand played" is one seat in one hand (hand_seats). Definitions, also
-- stated on the page: win rate = hands won / hands played; self-draw share = hands won by
-- self-draw / hands won; deal-in rate = hands in which the player's discard (or robbed
-- kong) was won on / hands played (hand_seats.dealt_in); drawn-hand rate = hands ending in
-- an exhaustive draw / hands played; points won per hand = mean of max(delta, 0) over the
-- hands played, points lost per hand = mean of max(-delta, 0). Counts, means and sample
-- standard deviations come from here; the intervals are added in Python (reports.stats).
-- Every rate and points figure is per variant: a variant's points are in its own units
-- (MCR points, zipai's points from 胡息 and 囤, Sichuan's units …) and its base rates differ
-- (3-player zipai, 4-player mahjong), so a player's rates are computed against that
-- variant's hands only and never added across variants.

-- name: winrates-player-variants
-- One row per variant and player: hands, wins, self_drawn, deal_ins, drawn, won_mean /
-- won_sd and lost_mean / lost_sd (points won and lost per hand, in the variant's points),
-- points (sum of deltas in the variant). Sorted by variant, most hands first, then name.
WITH seat_wins AS (
    SELECT game, hand, seat, bool_or(self_drawn) AS self_drawn
    FROM wins
    GROUP BY game, hand, seat
)
SELECT
    r.variant,
    s.player,
    count(*) AS hands,
    count(*) FILTER (WHERE s.won) AS wins,
    count(*) FILTER (WHERE s.won AND w.self_drawn) AS self_drawn,
    count(*) FILTER (WHERE s.dealt_in) AS deal_ins,
    count(*) FILTER (WHERE r.outcome = 'draw') AS drawn,
    avg(greatest(s.delta, 0)) AS won_mean,
    stddev_samp(greatest(s.delta, 0)) AS won_sd,
    avg(greatest(-s.delta, 0)) AS lost_mean,
    stddev_samp(greatest(-s.delta, 0)) AS lost_sd,
    sum(s.delta)::BIGINT AS points
FROM hand_seats s
JOIN report_hands r USING (game, hand)
LEFT JOIN seat_wins w ON w.game = s.game AND w.hand = s.hand AND w.seat = s.seat
GROUP BY r.variant, s.player
ORDER BY r.variant, hands DESC, s.player

-- name: winrates-seat-variants
-- One row per variant, seat number and dealer flag: hands, wins, self_drawn, deal_ins,
-- drawn, won_mean / lost_mean with their standard deviations. Sorted by variant, seat, the
-- dealer row first.
WITH seat_wins AS (
    SELECT game, hand, seat, bool_or(self_drawn) AS self_drawn
    FROM wins
    GROUP BY game, hand, seat
)
SELECT
    r.variant,
    s.seat,
    s.is_dealer,
    count(*) AS hands,
    count(*) FILTER (WHERE s.won) AS wins,
    count(*) FILTER (WHERE s.won AND w.self_drawn) AS self_drawn,
    count(*) FILTER (WHERE s.dealt_in) AS deal_ins,
    count(*) FILTER (WHERE r.outcome = 'draw') AS drawn,
    avg(greatest(s.delta, 0)) AS won_mean,
    stddev_samp(greatest(s.delta, 0)) AS won_sd,
    avg(greatest(-s.delta, 0)) AS lost_mean,
    stddev_samp(greatest(-s.delta, 0)) AS lost_sd
FROM hand_seats s
JOIN report_hands r USING (game, hand)
LEFT JOIN seat_wins w ON w.game = s.game AND w.hand = s.hand AND w.seat = s.seat
GROUP BY r.variant, s.seat, s.is_dealer
ORDER BY r.variant, s.seat, s.is_dealer DESC

-- name: winrates-variants
-- One row per variant (all players together): hands played (seat-hands), wins,
-- self_drawn, deal_ins, drawn, won_mean / won_sd, lost_mean / lost_sd. Sorted by variant.
WITH seat_wins AS (
    SELECT game, hand, seat, bool_or(self_drawn) AS self_drawn
    FROM wins
    GROUP BY game, hand, seat
)
SELECT
    r.variant,
    count(*) AS hands,
    count(*) FILTER (WHERE s.won) AS wins,
    count(*) FILTER (WHERE s.won AND w.self_drawn) AS self_drawn,
    count(*) FILTER (WHERE s.dealt_in) AS deal_ins,
    count(*) FILTER (WHERE r.outcome = 'draw') AS drawn,
    avg(greatest(s.delta, 0)) AS won_mean,
    stddev_samp(greatest(s.delta, 0)) AS won_sd,
    avg(greatest(-s.delta, 0)) AS lost_mean,
    stddev_samp(greatest(-s.delta, 0)) AS lost_sd
FROM hand_seats s
JOIN report_hands r USING (game, hand)
LEFT JOIN seat_wins w ON w.game = s.game AND w.hand = s.hand AND w.seat = s.seat
GROUP BY r.variant
ORDER BY r.variant

-- name: winrates-sources
-- How hands are won, per variant: one row per variant and source of the winning tile or
-- card (self_draw 自摸, discard 点炮, robbing_kong 抢杠, flip: a zipai win on a card another
-- seat flipped) with the wins and all wins of the variant. Sorted by variant, then source
-- in that order.
SELECT
    r.variant,
    w.source,
    CASE w.source
        WHEN 'self_draw' THEN 0 WHEN 'discard' THEN 1 WHEN 'robbing_kong' THEN 2
        WHEN 'flip' THEN 3 ELSE 4
    END AS source_order,
    count(*) AS wins,
    sum(count(*)) OVER (PARTITION BY r.variant)::BIGINT AS variant_wins
FROM wins w
JOIN report_hands r USING (game, hand)
GROUP BY r.variant, w.source
ORDER BY r.variant, source_order, w.source

-- name: winrates-rolling-variants
-- Per variant, the rolling win rate and deal-in rate of the $top players with the most
-- hands in it: after each of a player's hands of the variant in chronological order (`n` =
-- the player's hands of the variant so far), the share of the last $window of them (fewer
-- at the start: `window_hands`) won / dealt in. Thinned to about 500 points per player.
WITH seats AS (
    SELECT
        r.variant,
        s.player,
        s.won::INTEGER AS won,
        s.dealt_in::INTEGER AS dealt_in,
        row_number() OVER (PARTITION BY r.variant, s.player ORDER BY r.ord, s.seat) AS n,
        count(*) OVER (PARTITION BY r.variant, s.player) AS total
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
),
top AS (
    SELECT variant, player
    FROM seats
    WHERE n = 1
    QUALIFY row_number() OVER (PARTITION BY variant ORDER BY total DESC, player) <= $top
),
rolled AS (
    SELECT
        variant, player, n, total,
        least(n, $window) AS window_hands,
        avg(won) OVER recent AS win_rate,
        avg(dealt_in) OVER recent AS deal_in_rate
    FROM seats
    SEMI JOIN top USING (variant, player)
    WINDOW recent AS (PARTITION BY variant, player ORDER BY n ROWS BETWEEN $window - 1 PRECEDING
                      AND CURRENT ROW)
)
SELECT variant, player, n, window_hands, win_rate, deal_in_rate
FROM rolled
WHERE n % greatest(1, ceil(total / 500))::BIGINT = 0 OR n = total
ORDER BY variant, player, n
