-- Core tables of a paipu database: one row per hand, seat, win, fan, discard, missed win
-- and event, plus the rejected hands. Applied in file order; every statement is idempotent.
-- Keys are (game, hand) and are kept unique by the loader (delete, then insert), not by
-- constraints, so that bulk loads stay fast.

CREATE TABLE IF NOT EXISTS hands (
    game          VARCHAR NOT NULL,   -- a sitting of consecutive hands at one table
    hand          INTEGER NOT NULL,   -- 0-based index of the hand in its game
    variant       VARCHAR NOT NULL,   -- variant id: mcr, sichuan, zipai_chenzhou, …
    rules         VARCHAR,            -- JSON of the options that differ from the defaults
    time          TIMESTAMP,          -- start time when the record has one
    players       VARCHAR[] NOT NULL, -- names by seat
    dealer        INTEGER NOT NULL,   -- 庄家
    round_wind    VARCHAR,            -- 圈风, 1z-4z
    outcome       VARCHAR NOT NULL,   -- win | draw | abort
    winners       INTEGER,            -- how many wins the hand had
    verdict       VARCHAR NOT NULL,   -- ok | mismatch (record differs from the rules) | unrecorded
    problems      VARCHAR[],          -- the differences, fan by fan, in words
    n_events      INTEGER NOT NULL,
    source_format VARCHAR,            -- paipu | botzone-text | botzone-json
    source_file   VARCHAR,
    source_line   INTEGER,
    record        VARCHAR             -- the hand as one paipu log line, for replays
);

CREATE TABLE IF NOT EXISTS hand_seats (
    game           VARCHAR NOT NULL,
    hand           INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    player         VARCHAR NOT NULL,
    seat_wind      VARCHAR,
    is_dealer      BOOLEAN NOT NULL,
    delta          INTEGER NOT NULL,  -- points won or lost in this hand, as computed
    recorded_delta INTEGER,           -- as the source recorded them
    score_before   INTEGER,           -- game score before the hand, when recorded
    won            BOOLEAN NOT NULL,
    dealt_in       BOOLEAN NOT NULL,  -- this seat's discard or robbed kong was won on (放铳);
                                      -- not a win on a card it flipped (zipai)
    melds          INTEGER NOT NULL,  -- melds declared by the end of the hand
    ready_at_end   BOOLEAN NOT NULL   -- 听牌 when the hand ended
);

CREATE TABLE IF NOT EXISTS wins (
    game      VARCHAR NOT NULL,
    hand      INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    player    VARCHAR NOT NULL,
    seq       INTEGER NOT NULL,       -- the win event's index in the hand
    source    VARCHAR NOT NULL,       -- self_draw | discard | robbing_kong | flip (zipai:
                                      -- won on another seat's flipped card)
    from_seat INTEGER,                -- who provided the tile; null for a self-draw (自摸)
    tile      VARCHAR NOT NULL,
    total     INTEGER NOT NULL,       -- what the variant pays on: MCR fan incl. flowers,
                                      -- zipai 胡息 (xi), points elsewhere
    points    INTEGER NOT NULL,       -- the winner's gain from this win
    self_drawn BOOLEAN NOT NULL,
    last_tile BOOLEAN NOT NULL,       -- 妙手回春 / 海底捞月 situation
    kong_replacement BOOLEAN NOT NULL,
    robbing_kong BOOLEAN NOT NULL,
    last_of_kind BOOLEAN NOT NULL,
    detail    VARCHAR                 -- JSON of the variant's scoring facts, when it has any:
                                      -- zipai groups, 囤 and multiplier; birds and hits …
);

CREATE TABLE IF NOT EXISTS win_fans (
    game    VARCHAR NOT NULL,
    hand    INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    variant VARCHAR NOT NULL,
    fan     VARCHAR NOT NULL,         -- the variant's fan / hand type / 名堂 id
    name_zh VARCHAR NOT NULL,
    name_en VARCHAR NOT NULL,
    points  INTEGER NOT NULL,         -- per instance (zipai 名堂: the multiplier)
    count   INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS discards (
    game              VARCHAR NOT NULL,
    hand              INTEGER NOT NULL,
    seq               INTEGER NOT NULL,  -- event index in the hand
    seat              INTEGER NOT NULL,
    player            VARCHAR NOT NULL,
    variant           VARCHAR NOT NULL,
    turn              INTEGER NOT NULL,  -- the discarder's own discard count (巡), 1-based
    tile              VARCHAR NOT NULL,
    category          VARCHAR NOT NULL,  -- honor / terminal / 2-8 / 3-7; zipai: small|big
                                         -- red|black (see docs/reports.md)
    visible           INTEGER NOT NULL,  -- other copies the discarder could see
    tiles_left        INTEGER NOT NULL,
    opponent_melds    INTEGER[] NOT NULL, -- exposed melds of the next seats, in seat order
    opponent_ready    BOOLEAN[] NOT NULL, -- each next seat was ready (听牌)
    opponent_can_win  BOOLEAN[] NOT NULL, -- the tile completes that seat's hand with enough fan
    max_opponent_melds INTEGER NOT NULL,
    ready_opponents   INTEGER NOT NULL,
    dangerous         BOOLEAN NOT NULL,  -- completed some ready opponent's hand (true danger)
    won_on            BOOLEAN NOT NULL,  -- someone won on it (deal-in, 放铳)
    claimed           BOOLEAN NOT NULL   -- chi / pong / kong on it
);

CREATE TABLE IF NOT EXISTS missed_wins (
    game      VARCHAR NOT NULL,
    hand      INTEGER NOT NULL,
    seq       INTEGER NOT NULL,          -- the event that offered the win
    seat      INTEGER NOT NULL,
    player    VARCHAR NOT NULL,
    tile      VARCHAR NOT NULL,
    from_seat INTEGER,                   -- null: a self-draw not declared
    total     INTEGER NOT NULL           -- what the win would have scored
);

CREATE TABLE IF NOT EXISTS events (
    game      VARCHAR NOT NULL,
    hand      INTEGER NOT NULL,
    seq       INTEGER NOT NULL,          -- index of the event in the hand
    kind      VARCHAR NOT NULL,          -- draw, discard, chi, pong, kong, win, flip, …
    seat      INTEGER,                   -- null for table events (bird, indicator)
    tile      VARCHAR,                   -- the payload when it is one tile or card
    tiles     VARCHAR[],                 -- the payload when it is a list (chi, bird)
    from_seat INTEGER,                   -- extra "from" (wins on a discard, robbed kongs)
    extra     VARCHAR                    -- any other extra fields, as JSON
);

CREATE TABLE IF NOT EXISTS rejects (
    source      VARCHAR NOT NULL,        -- file
    line        INTEGER NOT NULL,        -- 1-based line where the hand starts (0: whole file)
    game        VARCHAR,
    hand        INTEGER,
    variant     VARCHAR,                 -- when the hand could be read that far
    players     VARCHAR[],
    event_index INTEGER,
    reason      VARCHAR NOT NULL
);
