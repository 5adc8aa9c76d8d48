-- Deal-in risk (放铳 / 放炮). Every discard has its facts in `discards`, known from the replay:
-- `dangerous` (true danger: the tile completed some ready opponent's hand with enough fan to
-- win) and `won_on` (someone won on it: a deal-in). A win is tied to the discard it was made
-- on exactly: the win's `source` is 'discard' and the discard is the discarder's last one
-- won on (`won_on`) before the win event (`wins.seq`), an ASOF join. Wins on a robbed kong are deal-ins too
-- (`hand_seats.dealt_in`) but have no discard; a zipai win on a flipped card is no deal-in.
--
-- Discard kinds, per the variant's cards (`discards.category`): mahjong honors by the number
-- of other copies the discarder could see (0-3), terminals (1, 9), 2 or 8, 3 to 7, tens;
-- zipai small / big (小 / 大) cards, red (二七十 / 贰柒拾) or black. Turn buckets count the
-- discarder's own discards: 1-3, 4-6, 7-9, 10-12, 13+.

-- name: dealin-grid
-- One row per variant, discard kind and turn bucket: discards, dangerous (completed a
-- ready opponent's hand), won_on (dealt in). kind_order and turns_order give the display
-- order (honors 0-3 visible, terminal, 2 or 8, 3 to 7, ten; zipai small red, small black,
-- big red, big black; turn buckets ascending).
SELECT
    d.variant,
    CASE d.category
        WHEN 'honor' THEN 'honor, ' || least(d.visible, 3) || ' visible'
        WHEN 'terminal' THEN 'terminal 1/9'
        WHEN '2-8' THEN '2 or 8'
        WHEN '3-7' THEN '3 to 7'
        WHEN 'ten' THEN 'ten 十'
        WHEN 'small red' THEN 'small red 小红 (二七十)'
        WHEN 'small black' THEN 'small black 小黑'
        WHEN 'big red' THEN 'big red 大红 (贰柒拾)'
        WHEN 'big black' THEN 'big black 大黑'
        ELSE d.category
    END AS kind,
    CASE d.category
        WHEN 'honor' THEN least(d.visible, 3)
        WHEN 'terminal' THEN 4
        WHEN '2-8' THEN 5
        WHEN '3-7' THEN 6
        WHEN 'ten' THEN 7
        WHEN 'small red' THEN 10
        WHEN 'small black' THEN 11
        WHEN 'big red' THEN 12
        WHEN 'big black' THEN 13
        ELSE 20
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
ORDER BY d.variant, kind_order, kind, turns_order

-- name: dealin-melds
-- Deal-in rate against opponents by their exposed melds. Each discard is paired with each
-- opponent (the other seats, up to three); per variant and number of that opponent's
-- exposed melds when the tile was discarded (0, 1, 2, 3+): pairs, won_by (that opponent won
-- on the discard) and could_win (the discard completed that opponent's hand with enough
-- fan). The pairs are counted per opponent position without listing them; the deal-ins,
-- few, are placed by their winner's melds.
WITH opponents AS (
    SELECT
        d.variant,
        least(d.opponent_melds[k.k], 3) AS melds_order,
        count(*) AS pairs,
        count(*) FILTER (WHERE d.opponent_can_win[k.k]) AS could_win
    FROM discards d
    JOIN report_hands r USING (game, hand)
    CROSS JOIN range(1, 4) k(k)
    WHERE k.k <= len(d.opponent_melds)
    GROUP BY ALL
),
won_on AS (
    SELECT d.*
    FROM discards d
    JOIN report_hands r USING (game, hand)
    WHERE d.won_on
),
deal_ins AS (
    SELECT DISTINCT
        d.variant, d.game, d.hand, d.seq, w.seat,
        least(d.opponent_melds[(w.seat - d.seat + len(d.opponent_melds) + 1)
                               % (len(d.opponent_melds) + 1)], 3) AS melds_order
    FROM wins w
    JOIN report_hands r USING (game, hand)
    ASOF JOIN won_on d
        ON d.game = w.game AND d.hand = w.hand AND d.seat = w.from_seat AND w.seq > d.seq
    WHERE w.source = 'discard'
),
won AS (
    SELECT variant, melds_order, count(*) AS won_by FROM deal_ins GROUP BY ALL
)
SELECT
    o.variant,
    CASE WHEN o.melds_order >= 3 THEN '3+' ELSE o.melds_order::VARCHAR END AS melds,
    o.melds_order,
    o.pairs,
    coalesce(x.won_by, 0) AS won_by,
    o.could_win
FROM opponents o
LEFT JOIN won x USING (variant, melds_order)
ORDER BY o.variant, o.melds_order

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
