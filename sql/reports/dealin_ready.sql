-- Deal-in risk against declared-ready opponents (报听 / 听). Where a variant declares ready
-- hands (a `ready` event in `events`: Harbin, and the variants that merge its ready
-- declaration), the discards made after an opponent declared are the real danger: the
-- opponent's hand may no longer change, it is known to be waiting. Each discard is paired
-- with each opponent (as `dealin-melds` does), and the pair is placed by that opponent's
-- state when the tile was discarded: declared ready (its `ready` event came before the
-- discard), ready by shape only (`discards.opponent_ready`, not declared), or not ready.

-- name: dealin-ready
-- One row per variant that has ready declarations and per opponent state (declared, ready by
-- shape only, not ready; state_order 0, 1, 2): pairs (discard-opponent pairs), won_by (that
-- opponent won on the discard) and could_win (the discard completed that opponent's hand as
-- the rules score it).
WITH declared AS (
    SELECT e.game, e.hand, e.seat, min(e.seq) AS seq
    FROM events e
    JOIN report_hands r USING (game, hand)
    WHERE e.kind = 'ready'
    GROUP BY ALL
),
declaring AS (
    SELECT DISTINCT r.variant
    FROM declared x
    JOIN report_hands r USING (game, hand)
),
pairs AS (
    SELECT
        d.variant, d.game, d.hand, d.seq, d.seat,
        (d.seat + k.k) % (len(d.opponent_melds) + 1) AS opponent,
        d.opponent_ready[k.k] AS shape_ready,
        d.opponent_can_win[k.k] AS could_win
    FROM discards d
    JOIN report_hands r USING (game, hand)
    JOIN declaring v ON v.variant = d.variant
    CROSS JOIN range(1, 4) k(k)
    WHERE k.k <= len(d.opponent_melds)
),
won_on AS (
    SELECT d.*
    FROM discards d
    JOIN report_hands r USING (game, hand)
    WHERE d.won_on
),
deal_ins AS (
    SELECT DISTINCT d.game, d.hand, d.seq, w.seat AS opponent
    FROM wins w
    JOIN report_hands r USING (game, hand)
    ASOF JOIN won_on d
        ON d.game = w.game AND d.hand = w.hand AND d.seat = w.from_seat AND w.seq > d.seq
    WHERE w.source = 'discard'
),
placed AS (
    SELECT
        p.variant,
        CASE WHEN x.seq IS NOT NULL THEN 0 WHEN p.shape_ready THEN 1 ELSE 2 END AS state_order,
        p.could_win,
        i.opponent IS NOT NULL AS won_by
    FROM pairs p
    LEFT JOIN declared x
        ON x.game = p.game AND x.hand = p.hand AND x.seat = p.opponent AND x.seq < p.seq
    LEFT JOIN deal_ins i
        ON i.game = p.game AND i.hand = p.hand AND i.seq = p.seq AND i.opponent = p.opponent
)
SELECT
    variant,
    CASE state_order
        WHEN 0 THEN 'declared ready 报听'
        WHEN 1 THEN 'ready by shape, not declared'
        ELSE 'not ready'
    END AS state,
    state_order,
    count(*) AS pairs,
    count(*) FILTER (WHERE won_by) AS won_by,
    count(*) FILTER (WHERE could_win) AS could_win
FROM placed
GROUP BY ALL
ORDER BY variant, state_order
