-- Fan frequencies (番种): per variant, how often each fan or hand type occurs in wins, the
-- distribution of win totals, the most frequent combinations and the average value; per
-- player against the population. A "win" is one row of `wins`; the population of a variant
-- is every win of that variant in the report (the player's own wins included).

-- name: fans-frequency
-- One row per variant and fan: its names (Chinese, English), points per instance, the wins
-- containing it (with_fan) and all wins of the variant (wins), and an example: the first win
-- with it in the report's order (example_game, example_hand, example_tile: the winning tile).
-- Sorted by variant, then the most frequent fan first, then higher points, then fan id.
WITH variant_wins AS (
    SELECT w.game, w.hand, w.seat, w.seq, w.tile, r.variant, r.ord
    FROM wins w
    JOIN report_hands r USING (game, hand)
),
totals AS (
    SELECT variant, count(*) AS wins FROM variant_wins GROUP BY variant
)
SELECT
    v.variant,
    f.fan,
    min(f.name_zh) AS name_zh,
    min(f.name_en) AS name_en,
    max(f.points) AS points,
    count(*) AS with_fan,
    min(t.wins) AS wins,
    arg_min(v.game, (v.ord, v.seat)) AS example_game,
    arg_min(v.hand, (v.ord, v.seat)) AS example_hand,
    arg_min(v.tile, (v.ord, v.seat)) AS example_tile
FROM win_fans f
JOIN variant_wins v
    ON v.game = f.game AND v.hand = f.hand AND v.seat = f.seat AND v.seq IS NOT DISTINCT FROM f.seq
JOIN totals t ON t.variant = v.variant
GROUP BY v.variant, f.fan
ORDER BY v.variant, with_fan DESC, points DESC, f.fan

-- name: fans-totals
-- The distribution of win totals, per variant as each variant counts them (`wins.total`:
-- MCR fan including flowers, zipai 胡息 xi, …; never added across variants): one row per
-- variant and total with the number of wins. Sorted by variant and total.
SELECT r.variant, w.total, count(*) AS wins
FROM wins w
JOIN report_hands r USING (game, hand)
GROUP BY r.variant, w.total
ORDER BY r.variant, w.total

-- name: fans-average
-- One row per variant: wins, the wins without any fan or hand type (plain: e.g. a zipai
-- win with no 名堂), the mean and sample standard deviation of the win total and of the
-- winner's points. Sorted by variant.
WITH with_fans AS (
    SELECT DISTINCT f.game, f.hand, f.seat, f.seq
    FROM win_fans f
    JOIN report_hands r USING (game, hand)
)
SELECT
    r.variant,
    count(*) AS wins,
    count(*) FILTER (WHERE x.seat IS NULL) AS plain,
    avg(w.total) AS total_mean,
    stddev_samp(w.total) AS total_sd,
    avg(w.points) AS points_mean,
    stddev_samp(w.points) AS points_sd
FROM wins w
JOIN report_hands r USING (game, hand)
LEFT JOIN with_fans x
    ON x.game = w.game AND x.hand = w.hand AND x.seat = w.seat AND x.seq IS NOT DISTINCT FROM w.seq
GROUP BY r.variant
ORDER BY r.variant

-- name: fans-combinations
-- The $top most frequent fan combinations per variant. A combination is the set of fans of
-- one win, written in order of points (highest first) then fan id, joined by " + "
-- (ids, Chinese and English names). with_combo: wins with exactly this set; wins: all wins
-- of the variant (wins without any fan row count in `wins` only). Flower fans
-- (flower_tiles, 花牌) are left out: they are luck, not part of the hand's shape. Sorted by
-- variant, most frequent first, then by the combination.
WITH combos AS (
    SELECT
        r.variant, f.game, f.hand, f.seat, f.seq,
        string_agg(f.fan, ' + ' ORDER BY f.points DESC, f.fan) AS fans,
        string_agg(f.name_zh, ' + ' ORDER BY f.points DESC, f.fan) AS names_zh,
        string_agg(f.name_en, ' + ' ORDER BY f.points DESC, f.fan) AS names_en
    FROM win_fans f
    JOIN report_hands r USING (game, hand)
    WHERE f.fan <> 'flower_tiles'
    GROUP BY r.variant, f.game, f.hand, f.seat, f.seq
),
totals AS (
    SELECT r.variant, count(*) AS wins
    FROM wins w
    JOIN report_hands r USING (game, hand)
    GROUP BY r.variant
)
SELECT
    c.variant,
    c.fans,
    min(c.names_zh) AS names_zh,
    min(c.names_en) AS names_en,
    count(*) AS with_combo,
    min(t.wins) AS wins
FROM combos c
JOIN totals t USING (variant)
GROUP BY c.variant, c.fans
QUALIFY row_number() OVER (PARTITION BY c.variant ORDER BY count(*) DESC, c.fans) <= $top
ORDER BY c.variant, with_combo DESC, c.fans

-- name: fans-players
-- Each player's fan profile against the population: one row per player, variant the
-- player won in, and fan seen in that variant: the player's wins with the fan (with_fan,
-- 0 if never), the player's wins in the variant (wins), and the same two counts over all
-- players (population_with_fan, population_wins). $player (NULL: everyone) keeps one player.
-- Sorted by player, variant, the population's most frequent fan first, then fan id.
WITH variant_wins AS (
    SELECT w.game, w.hand, w.seat, w.seq, w.player, r.variant
    FROM wins w
    JOIN report_hands r USING (game, hand)
),
player_wins AS (
    SELECT player, variant, count(*) AS wins FROM variant_wins GROUP BY player, variant
),
population AS (
    SELECT variant, count(*) AS wins FROM variant_wins GROUP BY variant
),
population_fans AS (
    SELECT
        v.variant, f.fan, min(f.name_zh) AS name_zh, min(f.name_en) AS name_en,
        max(f.points) AS points, count(*) AS with_fan
    FROM win_fans f
    JOIN variant_wins v
    ON v.game = f.game AND v.hand = f.hand AND v.seat = f.seat AND v.seq IS NOT DISTINCT FROM f.seq
    GROUP BY v.variant, f.fan
),
player_fans AS (
    SELECT v.player, v.variant, f.fan, count(*) AS with_fan
    FROM win_fans f
    JOIN variant_wins v
    ON v.game = f.game AND v.hand = f.hand AND v.seat = f.seat AND v.seq IS NOT DISTINCT FROM f.seq
    GROUP BY v.player, v.variant, f.fan
)
SELECT
    pw.player,
    pw.variant,
    pf.fan,
    pf.name_zh,
    pf.name_en,
    pf.points,
    coalesce(mine.with_fan, 0) AS with_fan,
    pw.wins,
    pf.with_fan AS population_with_fan,
    p.wins AS population_wins
FROM player_wins pw
JOIN population p ON p.variant = pw.variant
JOIN population_fans pf ON pf.variant = pw.variant
LEFT JOIN player_fans mine
    ON mine.player = pw.player AND mine.variant = pw.variant AND mine.fan = pf.fan
WHERE $player IS NULL OR pw.player = $player
ORDER BY pw.player, pw.variant, pf.with_fan DESC, pf.fan
