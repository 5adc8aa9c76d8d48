-- Per-variant rates: the win-rate and deal-in tables and figures, one per variant. A
-- variant's points are in its own units (MCR points, zipai's points from 胡息 and 囤,
-- Sichuan's units …) and its base rates differ (3-player zipai, 4-player mahjong), so a
-- player's rates are computed against that variant's hands only and never added across
-- variants. Definitions as in winrates.sql and dealin.sql.

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

-- name: dealin-player-variants
-- One row per variant and player: hands played, deal_ins, discards, dangerous discards,
-- into_open (deal-ins on a discard whose winner had an exposed meld when it was discarded),
-- and the points lost in deal-in hands (lost_mean, lost_sd, in the variant's points). Sorted
-- by variant, most hands first, then name.
WITH seats AS (
    SELECT
        r.variant,
        s.player,
        count(*) AS hands,
        count(*) FILTER (WHERE s.dealt_in) AS deal_ins,
        avg(-s.delta) FILTER (WHERE s.dealt_in) AS lost_mean,
        stddev_samp(-s.delta) FILTER (WHERE s.dealt_in) AS lost_sd
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
    GROUP BY r.variant, s.player
),
discarded AS (
    SELECT
        r.variant,
        d.player,
        count(*) AS discards,
        count(*) FILTER (WHERE d.dangerous) AS dangerous
    FROM discards d
    JOIN report_hands r USING (game, hand)
    GROUP BY r.variant, d.player
),
won_on AS (
    SELECT d.*, r.variant
    FROM discards d
    JOIN report_hands r USING (game, hand)
    WHERE d.won_on
),
open_deal_ins AS (
    SELECT d.variant, d.player, count(DISTINCT (d.game, d.hand)) AS into_open
    FROM wins w
    JOIN report_hands r USING (game, hand)
    ASOF JOIN won_on d
        ON d.game = w.game AND d.hand = w.hand AND d.seat = w.from_seat AND w.seq > d.seq
    WHERE w.source = 'discard'
      AND d.opponent_melds[(w.seat - d.seat + len(d.opponent_melds) + 1)
                           % (len(d.opponent_melds) + 1)] >= 1
    GROUP BY d.variant, d.player
)
SELECT
    s.variant,
    s.player,
    s.hands,
    s.deal_ins,
    coalesce(x.discards, 0) AS discards,
    coalesce(x.dangerous, 0) AS dangerous,
    coalesce(o.into_open, 0) AS into_open,
    s.lost_mean,
    s.lost_sd
FROM seats s
LEFT JOIN discarded x USING (variant, player)
LEFT JOIN open_deal_ins o USING (variant, player)
ORDER BY s.variant, s.hands DESC, s.player
