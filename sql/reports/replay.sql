-- Hand replays: everything a replay page shows, one row per hand.

-- name: replay-hands
-- One row per hand of the report, sorted by game and hand, for streaming: the hand's
-- variant, time, dealer, outcome and verdict, the previous and next hand of its game in
-- the report (prev_hand, next_hand: NULL at either end), its problems, the record (one
-- paipu log line), the
-- seats (list in seat order: player, wind, computed and recorded delta), the computed wins
-- (list by seat: from_seat, tile, total, points and the fans with Chinese and English
-- names, highest points first) and the missed wins (list in event order: seq, seat, tile,
-- from_seat, total).
WITH seat_rows AS (
    SELECT
        s.game, s.hand,
        list(struct_pack(
            seat := s.seat, player := s.player, wind := s.seat_wind, delta := s.delta,
            recorded := s.recorded_delta
        ) ORDER BY s.seat) AS seats
    FROM hand_seats s
    JOIN report_hands r USING (game, hand)
    GROUP BY s.game, s.hand
),
fan_rows AS (
    SELECT
        f.game, f.hand, f.seat,
        list(struct_pack(
            fan := f.fan, name_zh := f.name_zh, name_en := f.name_en, points := f.points,
            count := f.count
        ) ORDER BY f.points DESC, f.fan) AS fans
    FROM win_fans f
    JOIN report_hands r USING (game, hand)
    GROUP BY f.game, f.hand, f.seat
),
win_rows AS (
    SELECT
        w.game, w.hand,
        list(struct_pack(
            seat := w.seat, from_seat := w.from_seat, tile := w.tile, total := w.total,
            points := w.points, fans := f.fans
        ) ORDER BY w.seat) AS wins
    FROM wins w
    JOIN report_hands r USING (game, hand)
    LEFT JOIN fan_rows f ON f.game = w.game AND f.hand = w.hand AND f.seat = w.seat
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
    JOIN report_hands r USING (game, hand)
    GROUP BY m.game, m.hand
)
SELECT
    r.game, r.hand, r.variant, r.time, r.dealer, r.outcome, r.verdict,
    lag(r.hand) OVER (PARTITION BY r.game ORDER BY r.hand) AS prev_hand,
    lead(r.hand) OVER (PARTITION BY r.game ORDER BY r.hand) AS next_hand,
    h.problems, h.record, s.seats, w.wins, m.missed
FROM report_hands r
JOIN hands h USING (game, hand)
LEFT JOIN seat_rows s USING (game, hand)
LEFT JOIN win_rows w USING (game, hand)
LEFT JOIN missed_rows m USING (game, hand)
ORDER BY r.game, r.hand
