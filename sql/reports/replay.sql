-- Hand replays. The replay page of a hand rebuilds the table event by event in the browser
-- from the hand's record (one paipu log line); these queries give it the record and what
-- the rules computed. The hands are read a few games at a time, in game order, so that the
-- records are never all sorted or held at once.

-- name: replay-games
-- One row per game of the report, sorted by game id: how many of its hands the report
-- covers. The writer cuts this list into batches of whole games for `replay-hands`.
-- Recorded-only hands (score sheets, 国标小助手) have no events to replay: their pages are
-- written by the clubs' audit page (reports/club_audit.py), and they are left out here.
SELECT game, count(*) AS hands
FROM report_hands
WHERE source_kind = 'events'
GROUP BY game
ORDER BY game

-- name: replay-hands
-- One row per game of the report from getvariable('replay_first') to
-- getvariable('replay_last') (game ids, inclusive: the writer sets these two session
-- variables with SET VARIABLE before each batch), sorted by game: its hands in the report
-- (ascending), its players (sorted), and per hand, in the same order, its entry of the
-- game's data script as UTF-8 bytes: `"<hand>":{"info":…,"record":…}`. `record` is the
-- hand's paipu log line as stored (a JSON object; null if it is not one); `info` is a JSON
-- object of what the page shows beside it: variant, time, dealer, outcome, verdict,
-- problems, the previous and next hand of its game in the report (prev, next: null at
-- either end), the seats (player, wind, computed and recorded delta), the computed wins
-- (seat, from_seat, source, event index seq, tile, total, points, the fans with their
-- names, highest points first, and `detail`, the variant's scoring facts from
-- `wins.detail` as a JSON value — zipai's grouping of the winner's cards with each group's
-- 胡息, 起胡, 囤 and multiplier; the birds and the seats they land on; Sichuan's void … —
-- or null) and the missed wins (seq, seat, tile, from_seat, total), each list in seat or
-- event order; and `reviews`, the decision review of the hand's discards that `paipu review
-- --save` kept for this very record (seq, seat, tile, shanten, live, best, best_shanten,
-- best_live, loss, dangerous, won_on, safe; in event order; [] when none). The entries are
-- made here, so that the writer only joins bytes.
WITH chosen AS (
    SELECT
        r.game, r.hand, r.variant, r.time, r.dealer, r.outcome, r.verdict,
        lag(r.hand) OVER (PARTITION BY r.game ORDER BY r.hand) AS prev,
        lead(r.hand) OVER (PARTITION BY r.game ORDER BY r.hand) AS next
    FROM report_hands r
    WHERE r.game BETWEEN getvariable('replay_first') AND getvariable('replay_last')
      AND r.source_kind = 'events'
),
seat_rows AS (
    SELECT
        s.game, s.hand,
        list(s.player ORDER BY s.seat) AS players,
        list(struct_pack(
            seat := s.seat, player := s.player, wind := s.seat_wind, delta := s.delta,
            recorded := s.recorded_delta
        ) ORDER BY s.seat) AS seats
    FROM hand_seats s
    JOIN chosen c USING (game, hand)
    WHERE s.game BETWEEN getvariable('replay_first') AND getvariable('replay_last')
    GROUP BY s.game, s.hand
),
fan_rows AS (
    SELECT
        f.game, f.hand, f.seat, f.seq,
        list(struct_pack(
            fan := f.fan, name_zh := f.name_zh, name_en := f.name_en, points := f.points,
            count := f.count
        ) ORDER BY f.points DESC, f.fan) AS fans
    FROM win_fans f
    JOIN chosen c USING (game, hand)
    WHERE f.game BETWEEN getvariable('replay_first') AND getvariable('replay_last')
    GROUP BY f.game, f.hand, f.seat, f.seq
),
win_rows AS (
    SELECT
        w.game, w.hand,
        list(struct_pack(
            seat := w.seat, from_seat := w.from_seat, source := w.source, seq := w.seq,
            tile := w.tile, total := w.total, points := w.points,
            fans := coalesce(f.fans, []), detail := w.detail::JSON
        ) ORDER BY w.seq, w.seat) AS wins
    FROM wins w
    JOIN chosen c USING (game, hand)
    LEFT JOIN fan_rows f
        ON f.game = w.game AND f.hand = w.hand AND f.seat = w.seat
        AND f.seq IS NOT DISTINCT FROM w.seq
    WHERE w.game BETWEEN getvariable('replay_first') AND getvariable('replay_last')
    GROUP BY w.game, w.hand
),
missed_rows AS (
    SELECT
        m.game, m.hand,
        list(struct_pack(
            seq := m.seq, seat := m.seat, tile := m.tile, from_seat := m.from_seat,
            total := m.total
        ) ORDER BY m.seq, m.seat) AS missed
    FROM missed_wins m
    JOIN chosen c USING (game, hand)
    WHERE m.game BETWEEN getvariable('replay_first') AND getvariable('replay_last')
    GROUP BY m.game, m.hand
),
review_rows AS (
    SELECT
        r.game, r.hand,
        list(struct_pack(
            seq := r.seq, seat := r.seat, tile := r.tile, shanten := r.shanten,
            live := r.live, best := r.best, best_shanten := r.best_shanten,
            best_live := r.best_live, loss := r.loss, dangerous := r.dangerous,
            won_on := r.won_on, safe := r.safe_existed
        ) ORDER BY r.seq) AS reviews
    FROM discard_reviews r
    JOIN chosen c USING (game, hand)
    JOIN hands h ON h.game = r.game AND h.hand = r.hand AND md5(h.record) = r.record_md5
    WHERE r.game BETWEEN getvariable('replay_first') AND getvariable('replay_last')
    GROUP BY r.game, r.hand
),
hand_rows AS (
    SELECT
        c.game,
        c.hand,
        s.players,
        '"' || c.hand || '":{"info":' || to_json(struct_pack(
            variant := c.variant,
            time := strftime(c.time, '%Y-%m-%d %H:%M'),
            dealer := c.dealer,
            outcome := c.outcome,
            verdict := c.verdict,
            problems := coalesce(h.problems, []),
            prev := c.prev,
            next := c.next,
            seats := coalesce(s.seats, []),
            wins := coalesce(w.wins, []),
            missed := coalesce(m.missed, []),
            reviews := coalesce(v.reviews, [])
        ))::VARCHAR || ',"record":'
        || CASE WHEN h.record LIKE '{%}' THEN h.record ELSE 'null' END || '}' AS entry
    FROM chosen c
    JOIN hands h ON h.game = c.game AND h.hand = c.hand
        AND h.game BETWEEN getvariable('replay_first') AND getvariable('replay_last')
    LEFT JOIN seat_rows s ON s.game = c.game AND s.hand = c.hand
    LEFT JOIN win_rows w ON w.game = c.game AND w.hand = c.hand
    LEFT JOIN missed_rows m ON m.game = c.game AND m.hand = c.hand
    LEFT JOIN review_rows v ON v.game = c.game AND v.hand = c.hand
)
SELECT
    game,
    list(hand ORDER BY hand) AS hands,
    list_sort(list_distinct(flatten(list(players)))) AS players,
    list(encode(entry) ORDER BY hand) AS entries
FROM hand_rows
GROUP BY game
ORDER BY game
