-- A win's fans name the win by its event index (`wins.seq`), not only by its seat: under
-- 血流成河 (Sichuan `mode = "xueliu"`) a seat wins several times in one hand, each win with
-- its own fans. NULL where the win has no event index (recorded-only hands, as `wins.seq`).
-- Join a win to its fans on (game, hand, seat, seq) with `IS NOT DISTINCT FROM` for seq.
-- Idempotent: every statement can run again on a database that already has it.

ALTER TABLE win_fans ADD COLUMN IF NOT EXISTS seq INTEGER;
