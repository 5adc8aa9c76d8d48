-- Who sits with whom (for clubs): each player's most frequent table-mates, and per ordered
-- pair of players how often the first dealt in to the second against the number their
-- overall rates lead one to expect, with a significance figure: the signal a club looks at
-- for collusion (喂牌, feeding a partner). Definitions and the test: docs/reports.md.
-- Only hands with a different name at every seat count (Botzone's bots, one name at four
-- seats, cannot be told apart).

-- name: table-mates
-- The $top most frequent table-mates of every player: hands and games shared (sat at the
-- same table, in any variant: counts, never points) and the variants of those hands.
-- Sorted by player, then rank (most hands first, then name).
WITH seats AS (
    SELECT DISTINCT s.game, s.hand, s.player, r.variant
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
)
SELECT
    a.player,
    row_number() OVER (PARTITION BY a.player ORDER BY count(*) DESC, b.player) AS rank,
    b.player AS mate,
    count(*) AS hands,
    count(DISTINCT a.game) AS games,
    string_agg(DISTINCT a.variant, ', ' ORDER BY a.variant) AS variants
FROM seats a
JOIN seats b ON b.game = a.game AND b.hand = a.hand AND b.player <> a.player
GROUP BY a.player, b.player
QUALIFY rank <= $top
ORDER BY a.player, rank

-- name: pair-dealins
-- Per variant and ordered pair (discarder, winner) who shared at least $min_hands hands:
-- hands together, deal_ins (hands in which the winner won on the discarder's discard or
-- robbed kong), expected (what the pair's overall rates predict: the sum over the hands
-- they shared of d × r / Σr, d the discarder's deal-in rate, r the winner's rate of winning
-- on a discard, Σr that rate summed over the discarder's opponents at that hand; rates per
-- hand played in the variant), the rates per shared hand (rate, expected_rate), ratio =
-- deal_ins / expected, p_value = P(X ≥ deal_ins) for X ~ Poisson(expected) (one-sided:
-- more deal-ins than expected), pairs_tested (pairs of the variant in this table) and
-- p_bonferroni = min(1, p_value × pairs_tested). The discarder's and the winner's rates are
-- listed too. Sorted by variant, p_value, ratio (higher first), discarder, winner.
WITH clean AS (
    SELECT s.game, s.hand
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
    GROUP BY s.game, s.hand
    HAVING count(*) = count(DISTINCT s.player)
),
feeds AS (
    SELECT DISTINCT game, hand, from_seat, seat
    FROM wins
    WHERE source IN ('discard', 'robbing_kong') AND from_seat IS NOT NULL
),
won_on AS (
    SELECT DISTINCT game, hand, seat FROM feeds
),
seats AS (
    SELECT
        r.variant, s.game, s.hand, s.seat, s.player,
        s.dealt_in::INTEGER AS dealt_in,
        (o.seat IS NOT NULL)::INTEGER AS won_on_discard
    FROM hand_seats s
    JOIN clean USING (game, hand)
    JOIN report_hands r USING (game, hand)
    LEFT JOIN won_on o ON o.game = s.game AND o.hand = s.hand AND o.seat = s.seat
),
rates AS (
    SELECT
        variant, player, count(*) AS hands,
        avg(dealt_in) AS deal_in_rate,
        avg(won_on_discard) AS discard_win_rate
    FROM seats
    GROUP BY variant, player
),
rated AS (
    SELECT s.*, x.deal_in_rate, x.discard_win_rate,
           sum(x.discard_win_rate) OVER (PARTITION BY s.game, s.hand) AS table_rate
    FROM seats s
    JOIN rates x USING (variant, player)
),
pairs AS (
    SELECT
        a.variant, a.player AS discarder, b.player AS winner,
        a.deal_in_rate * b.discard_win_rate
            / nullif(a.table_rate - a.discard_win_rate, 0) AS p,
        f.seat IS NOT NULL AS fed
    FROM rated a
    JOIN rated b ON b.game = a.game AND b.hand = a.hand AND b.seat <> a.seat
    LEFT JOIN feeds f
        ON f.game = a.game AND f.hand = a.hand AND f.from_seat = a.seat AND f.seat = b.seat
),
counted AS (
    SELECT
        variant, discarder, winner,
        count(*) AS hands,
        count(*) FILTER (WHERE fed) AS deal_ins,
        coalesce(sum(p), 0) AS expected
    FROM pairs
    GROUP BY variant, discarder, winner
    HAVING count(*) >= $min_hands
),
tested AS (
    SELECT
        c.*,
        CASE
            WHEN c.deal_ins = 0 THEN 1.0
            WHEN c.expected <= 0 THEN 0.0
            WHEN c.deal_ins > c.expected THEN least(1.0, list_sum(list_transform(
                range(c.deal_ins, c.deal_ins + 50 + ceil(12 * sqrt(c.expected))::BIGINT),
                lambda k: exp(k * ln(c.expected) - c.expected - lgamma(k + 1)))))
            ELSE greatest(0.0, 1.0 - list_sum(list_transform(
                range(0, c.deal_ins),
                lambda k: exp(k * ln(c.expected) - c.expected - lgamma(k + 1)))))
        END AS p_value
    FROM counted c
)
SELECT
    t.variant, t.discarder, t.winner, t.hands, t.deal_ins, t.expected,
    t.deal_ins / t.hands AS rate,
    t.expected / t.hands AS expected_rate,
    t.deal_ins / nullif(t.expected, 0) AS ratio,
    t.p_value,
    count(*) OVER (PARTITION BY t.variant) AS pairs_tested,
    least(1.0, t.p_value * count(*) OVER (PARTITION BY t.variant)) AS p_bonferroni,
    d.deal_in_rate AS discarder_deal_in_rate,
    w.discard_win_rate AS winner_discard_win_rate
FROM tested t
JOIN rates d ON d.variant = t.variant AND d.player = t.discarder
JOIN rates w ON w.variant = t.variant AND w.player = t.winner
ORDER BY t.variant, t.p_value, ratio DESC NULLS LAST, t.discarder, t.winner
