-- Recorded-only hands (score sheets, 国标小助手 records: docs/clubs.md) beside the replayed
-- logs. They have no events, so the analytics that need events (deal-in by turn, danger,
-- missed wins, replays) find no rows of theirs; the hand tables mark them by source.
-- Idempotent: every statement can run again on a database that already has it.

-- 'events' (replayed from an event log) | 'recorded' (what a club wrote down: no events)
ALTER TABLE hands ADD COLUMN IF NOT EXISTS source_kind VARCHAR DEFAULT 'events';
-- recorded-only hands: ok | mismatch | invalid (the audit of docs/clubs.md)

-- points within the delta that are not a win's settlement (罚分 / 调整), when recorded
ALTER TABLE hand_seats ADD COLUMN IF NOT EXISTS penalty INTEGER;

-- What a sheet does not know is NULL for a recorded-only hand: the melds and readiness of
-- each seat, the win event's index, the winning tile when no one wrote it.
ALTER TABLE hand_seats ALTER COLUMN melds DROP NOT NULL;
ALTER TABLE hand_seats ALTER COLUMN ready_at_end DROP NOT NULL;
ALTER TABLE wins ALTER COLUMN seq DROP NOT NULL;
ALTER TABLE wins ALTER COLUMN tile DROP NOT NULL;
