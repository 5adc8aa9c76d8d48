-- Deal-in risk (放铳). Every discard has its facts in `discards`, known from the replay:
-- `dangerous` (true danger: the tile completed some ready opponent's hand with enough fan to
-- win) and `won_on` (someone won on it: a deal-in). Discard kinds: honors by the number of
-- other copies the discarder could see (0-3), terminals (1, 9), 2 or 8, 3 to 7. Turn
-- buckets count the discarder's own discards: 1-3, 4-6, 7-9, 10-12, 13+.

-- name: dealin-grid
-- One row per variant, discard kind and turn bucket: discards, dangerous (completed a
-- ready opponent's hand), won_on (dealt in). kind_order and turns_order give the display
-- order (honors 0-3 visible, terminal, 2 or 8, 3 to 7; turn buckets ascending).
SELECT
    d.variant,
    CASE d.category
        WHEN 'honor' THEN 'honor, ' || least(d.visible, 3) || ' visible'
        WHEN 'terminal' THEN 'terminal 1/9'
        WHEN '2-8' THEN '2 or 8'
        ELSE '3 to 7'
    END AS kind,
    CASE d.category
        WHEN 'honor' THEN least(d.visible, 3)
        WHEN 'terminal' THEN 4
        WHEN '2-8' THEN 5
        ELSE 6
    END AS kind_order,
    CASE
        WHEN d.turn <= 3 THEN '1-3'
        WHEN d.turn <= 6 THEN '4-6'
        WHEN d.turn <= 9 THEN '7-9'
        WHEN d.turn <= 12 THEN '10-12'
        ELSE '13+'
    END AS turns,
    least((d.turn - 1) // 3, 4) AS turns_order,
    count(*) AS discards,
    count(*) FILTER (WHERE d.dangerous) AS dangerous,
    count(*) FILTER (WHERE d.won_on) AS won_on
FROM discards d
JOIN report_hands r USING (game, hand)
GROUP BY ALL
ORDER BY d.variant, kind_order, turns_order

-- name: dealin-melds
-- Deal-in rate against opponents by their exposed melds. Each discard is paired with each
-- opponent (the other seats); per variant and number of that opponent's exposed melds when
-- the tile was discarded (0, 1, 2, 3+): pairs, won_by (that opponent won on the discard)
-- and could_win (the discard completed that opponent's hand with enough fan).
WITH pairs AS (
    SELECT
        d.game, d.hand, d.seat, d.tile, d.variant, d.won_on,
        len(d.opponent_melds) + 1 AS players,
        unnest(d.opponent_melds) AS melds,
        unnest(d.opponent_can_win) AS can_win,
        unnest(generate_series(1, len(d.opponent_melds))) AS k
    FROM discards d
    JOIN report_hands r USING (game, hand)
),
deal_ins AS (
    SELECT DISTINCT w.game, w.hand, w.from_seat, w.tile, w.seat
    FROM wins w
    JOIN report_hands r USING (game, hand)
    WHERE w.from_seat IS NOT NULL
)
SELECT
    p.variant,
    CASE WHEN p.melds >= 3 THEN '3+' ELSE p.melds::VARCHAR END AS melds,
    least(p.melds, 3) AS melds_order,
    count(*) AS pairs,
    count(*) FILTER (WHERE p.won_on AND x.seat IS NOT NULL) AS won_by,
    count(*) FILTER (WHERE p.can_win) AS could_win
FROM pairs p
LEFT JOIN deal_ins x
    ON x.game = p.game AND x.hand = p.hand AND x.from_seat = p.seat AND x.tile = p.tile
    AND x.seat = (p.seat + p.k) % p.players
GROUP BY ALL
ORDER BY p.variant, melds_order

-- name: dealin-players
-- One row per player: hands played, deal_ins (hands in which the player's discard or robbed
-- kong was won on), discards, dangerous discards, into_open (deal-ins on a discard whose
-- winner had at least one exposed meld when it was discarded: a visibly open hand), and the
-- points lost in deal-in hands (lost_mean, lost_sd: mean and sample sd of -delta).
-- Sorted by hands played (most first), then name.
WITH seats AS (
    SELECT
        s.player,
        count(*) AS hands,
        count(*) FILTER (WHERE s.dealt_in) AS deal_ins,
        avg(-s.delta) FILTER (WHERE s.dealt_in) AS lost_mean,
        stddev_samp(-s.delta) FILTER (WHERE s.dealt_in) AS lost_sd
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
    GROUP BY s.player
),
discarded AS (
    SELECT
        d.player,
        count(*) AS discards,
        count(*) FILTER (WHERE d.dangerous) AS dangerous
    FROM discards d
    JOIN report_hands r USING (game, hand)
    GROUP BY d.player
),
open_deal_ins AS (
    SELECT d.player, count(DISTINCT (d.game, d.hand)) AS into_open
    FROM discards d
    JOIN report_hands r USING (game, hand)
    JOIN wins w ON w.game = d.game AND w.hand = d.hand AND w.from_seat = d.seat
        AND w.tile = d.tile
    WHERE d.won_on
      AND d.opponent_melds[(w.seat - d.seat + len(d.opponent_melds) + 1)
                           % (len(d.opponent_melds) + 1)] >= 1
    GROUP BY d.player
)
SELECT
    s.player,
    s.hands,
    s.deal_ins,
    coalesce(x.discards, 0) AS discards,
    coalesce(x.dangerous, 0) AS dangerous,
    coalesce(o.into_open, 0) AS into_open,
    s.lost_mean,
    s.lost_sd
FROM seats s
LEFT JOIN discarded x USING (player)
LEFT JOIN open_deal_ins o USING (player)
ORDER BY s.hands DESC, s.player
