-- Player pages: one query per section, each returning the rows of every player at once
-- (a page is cut out of them in Python), or of one player when $player is set. Hands are
-- in chronological order (report_hands.ord, then seat: a name may sit at several seats of
-- one hand, as Botzone's bots do). A page has a section per variant played, and points are
-- in the variant's own units, so every row names its variant and nothing is summed or
-- counted across variants: long lists keep the $limit most recent rows per player and
-- variant.

-- name: player-cumulative
-- The player's cumulative score in each variant after each hand of it played (n = hands of
-- the variant so far, score = sum of its deltas so far, in the variant's points), with the
-- hand (game, hand, time). Thinned to about 1000 points per player and variant: the first
-- hand, every k-th hand and the last.
WITH seats AS (
    SELECT
        s.player, r.variant, s.game, s.hand, s.seat, r.time, s.delta,
        row_number() OVER (PARTITION BY s.player, r.variant ORDER BY r.ord, s.seat) AS n,
        count(*) OVER (PARTITION BY s.player, r.variant) AS total
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
    WHERE $player IS NULL OR s.player = $player
),
running AS (
    SELECT
        *,
        (sum(s.delta) OVER (PARTITION BY s.player, s.variant ORDER BY s.n
                            ROWS UNBOUNDED PRECEDING))::BIGINT AS score
    FROM seats s
)
SELECT player, variant, n, game, hand, seat, time, delta, score
FROM running
WHERE n = 1 OR n = total OR n % greatest(1, ceil(total / 1000))::BIGINT = 0
ORDER BY player, variant, n

-- name: player-games
-- One row per player and game, most recent game first, at most $limit per player and
-- variant: the variant, when it started (NULL without times), the hands played (list,
-- ascending), the seats taken, wins, deal_ins, points (sum of deltas, in the variant's
-- points), and games_total (all the player's games of the variant, before the limit).
WITH seats AS (
    SELECT s.player, s.game, s.hand, s.seat, s.won, s.dealt_in, s.delta, r.variant, r.time,
           r.ord
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
    WHERE $player IS NULL OR s.player = $player
)
SELECT
    player,
    game,
    min(variant) AS variant,
    min(time) AS started,
    list(DISTINCT hand ORDER BY hand) AS hands,
    list(DISTINCT seat ORDER BY seat) AS seats,
    count(*) FILTER (WHERE won) AS wins,
    count(*) FILTER (WHERE dealt_in) AS deal_ins,
    sum(delta)::BIGINT AS points,
    min(ord) AS first_ord,
    count(*) OVER (PARTITION BY player, min(variant)) AS games_total
FROM seats
GROUP BY player, game
QUALIFY row_number() OVER (PARTITION BY player, min(variant) ORDER BY min(ord) DESC, game)
    <= $limit
ORDER BY player, first_ord DESC, game

-- name: player-extremes
-- Per variant, the player's $top biggest wins (delta > 0, largest first) and $top biggest
-- losses (delta < 0, largest loss first): kind ('win' / 'loss'), rank, the hand, its time and
-- variant, the delta, and what happened: for a win the fans scored (Chinese and English
-- names, ×count), for a loss who won and with what total.
WITH seats AS (
    SELECT s.player, s.game, s.hand, s.seat, s.delta, r.time, r.variant, r.ord
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
    WHERE $player IS NULL OR s.player = $player
),
fans AS (
    SELECT
        f.game, f.hand, f.seat,
        string_agg(
            f.name_zh || ' ' || f.name_en || CASE WHEN f.count > 1 THEN ' ×' || f.count ELSE '' END,
            ', ' ORDER BY f.points DESC, f.fan
        ) AS fans
    FROM win_fans f
    JOIN report_hands r USING (game, hand)
    GROUP BY f.game, f.hand, f.seat
),
winners AS (
    SELECT w.game, w.hand,
           string_agg(w.player || ' (' || w.total || ')', ', ' ORDER BY w.seat) AS winners
    FROM wins w
    JOIN report_hands r USING (game, hand)
    GROUP BY w.game, w.hand
),
ranked AS (
    SELECT
        s.*,
        CASE WHEN s.delta > 0 THEN 'win' ELSE 'loss' END AS kind,
        CASE WHEN s.delta > 0 THEN f.fans ELSE 'won by ' || coalesce(x.winners, '?') END
            AS detail,
        row_number() OVER (PARTITION BY s.player, s.variant, s.delta > 0
                           ORDER BY abs(s.delta) DESC, s.ord, s.seat) AS rank
    FROM seats s
    LEFT JOIN fans f USING (game, hand, seat)
    LEFT JOIN winners x USING (game, hand)
    WHERE s.delta <> 0
)
SELECT player, kind, rank, game, hand, seat, time, variant, delta, detail
FROM ranked
WHERE rank <= $top
ORDER BY player, variant, kind DESC, rank

-- name: player-dealins
-- The player's deal-ins (放铳: a win on the player's discard or robbed kong), most recent
-- first, at most $limit per player and variant: the variant, the hand, the win's source ('discard' or
-- 'robbing_kong') and event index (win_seq), the tile; for a discard its event index (seq,
-- tied to the win exactly: the player's last discard won on before the win) and their
-- turn, and the winner's exposed melds when it was discarded (NULL for a robbed kong); the
-- winner, the win's total and the points the player lost in the hand; deal_ins_total
-- counts them all (of the variant) before the limit.
WITH won_on AS (
    SELECT d.*
    FROM discards d
    JOIN report_hands r USING (game, hand)
    WHERE d.won_on
)
SELECT
    s.player, r.variant, w.game, w.hand, w.source, w.seq AS win_seq, w.tile, r.time,
    CASE WHEN w.source = 'discard' THEN d.seq END AS seq,
    CASE WHEN w.source = 'discard' THEN d.turn END AS turn,
    w.player AS winner,
    CASE WHEN w.source = 'discard' THEN
        d.opponent_melds[(w.seat - d.seat + len(d.opponent_melds) + 1)
                         % (len(d.opponent_melds) + 1)]
    END AS winner_melds,
    w.total,
    -s.delta AS lost,
    count(*) OVER (PARTITION BY s.player, r.variant) AS deal_ins_total
FROM wins w
JOIN report_hands r USING (game, hand)
JOIN hand_seats s ON s.game = w.game AND s.hand = w.hand AND s.seat = w.from_seat
ASOF LEFT JOIN won_on d
    ON d.game = w.game AND d.hand = w.hand AND d.seat = w.from_seat AND w.seq > d.seq
WHERE w.source IN ('discard', 'robbing_kong') AND ($player IS NULL OR s.player = $player)
QUALIFY row_number() OVER (PARTITION BY s.player, r.variant ORDER BY r.ord DESC, w.seq, w.seat)
    <= $limit
ORDER BY s.player, r.ord DESC, w.seq, w.seat

-- name: player-missed
-- Missed wins (legal wins passed over), most recent first, at most $limit per player and
-- variant: the variant, the hand, the event that offered the win (seq), the tile, from whom (NULL: an undeclared
-- self-draw) and what the win would have scored (in the variant's unit); missed_total
-- counts them all (of the variant).
SELECT
    m.player, r.variant, m.game, m.hand, m.seq, m.seat, m.tile, r.time,
    m.from_seat,
    fs.player AS from_player,
    m.total,
    count(*) OVER (PARTITION BY m.player, r.variant) AS missed_total
FROM missed_wins m
JOIN report_hands r USING (game, hand)
LEFT JOIN hand_seats fs ON fs.game = m.game AND fs.hand = m.hand AND fs.seat = m.from_seat
WHERE $player IS NULL OR m.player = $player
QUALIFY row_number() OVER (PARTITION BY m.player, r.variant ORDER BY r.ord DESC, m.seq, m.seat)
    <= $limit
ORDER BY m.player, r.ord DESC, m.seq, m.seat
