-- Decision review (复盘): one row per discard reviewed by `paipu review --save` (and
-- `paipu demo`), for the hand replay pages and analysts' own queries. Computed on demand by
-- replaying `hands.record`, not at ingest (docs/decisions.md, "Decision review"); a row
-- belongs to the record it was computed from (`record_md5`), so a hand ingested again
-- with another record is simply no longer annotated until it is reviewed again.
-- Definitions: docs/reports.md, "Decision review".

CREATE TABLE IF NOT EXISTS discard_reviews (
    game               VARCHAR NOT NULL,
    hand               INTEGER NOT NULL,
    seq                INTEGER NOT NULL,  -- the discard's event index
    seat               INTEGER NOT NULL,
    player             VARCHAR NOT NULL,
    variant            VARCHAR NOT NULL,
    turn               INTEGER NOT NULL,  -- the seat's own discard count (巡)
    tile               VARCHAR NOT NULL,
    shanten            INTEGER,           -- of the hand the discard left (向听); null: zipai
    live               INTEGER,           -- its live useful tiles (进张)
    best               VARCHAR[],         -- the discards as efficient as the best
    best_shanten       INTEGER,
    best_live          INTEGER,
    loss               INTEGER,           -- live useful tiles given up against the best
    efficient          BOOLEAN,           -- as efficient as the best (loss 0)
    ready_opponents    INTEGER NOT NULL,  -- opponents ready by shape when it landed
    declared_opponents INTEGER NOT NULL,  -- opponents that had declared ready (报听)
    dangerous          BOOLEAN NOT NULL,  -- completed a ready opponent's hand (true danger)
    won_on             BOOLEAN NOT NULL,  -- a deal-in (放铳)
    safe_existed       BOOLEAN,           -- another legal discard was safe (null: not dangerous)
    record_md5         VARCHAR NOT NULL   -- md5 of the hands.record reviewed
);
