-- Each member's calls per month, kept by the database with every write to `calls` (issue 28,
-- docs/performance.md "Team scale"): the usage report and its team totals read a member's months
-- here instead of ranging over their calls. `month` is the UTC month the calls started in,
-- `YYYY-MM` (timestamps are UTC text, `YYYY-MM-DD ...`); `seconds` counts the calls that have
-- ended (`duration_seconds`), as the report does; `last_started_at` is the newest call of the
-- month (a member's newest call, and whether they called since the idle cutoff). Table and column
-- names are identical in both schemas; PostgreSQL has one trigger and function (`calls_months`),
-- SQLite one trigger per event (`calls_months_*`). WITHOUT ROWID:
-- a member's months are read from the primary key's b-tree alone, no second lookup per row.
CREATE TABLE call_months (
    user_id BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month TEXT NOT NULL,
    calls INTEGER NOT NULL,
    seconds INTEGER NOT NULL,
    last_started_at TEXT,
    PRIMARY KEY (user_id, month)
) WITHOUT ROWID;

CREATE TRIGGER calls_months_insert AFTER INSERT ON calls
BEGIN
    INSERT INTO call_months (user_id, month, calls, seconds, last_started_at)
        VALUES (NEW.user_id, substr(NEW.started_at, 1, 7), 1, COALESCE(NEW.duration_seconds, 0),
                NEW.started_at)
        ON CONFLICT (user_id, month) DO UPDATE
        SET calls = calls + 1, seconds = seconds + excluded.seconds,
            last_started_at = max(COALESCE(last_started_at, excluded.last_started_at),
                                  excluded.last_started_at);
END;

-- A call ended (or its duration corrected): only the month's seconds change. A heartbeat
-- (`last_heartbeat_at`) changes none of the columns these triggers watch and fires nothing.
CREATE TRIGGER calls_months_ended AFTER UPDATE OF duration_seconds ON calls
WHEN NEW.user_id = OLD.user_id AND NEW.started_at = OLD.started_at
BEGIN
    UPDATE call_months
        SET seconds = seconds - COALESCE(OLD.duration_seconds, 0)
            + COALESCE(NEW.duration_seconds, 0)
        WHERE user_id = NEW.user_id AND month = substr(NEW.started_at, 1, 7);
END;

-- The call leaves its month (deleted, or moved to another user or time): the month's newest call
-- is found again when it was this one.
CREATE TRIGGER calls_months_delete AFTER DELETE ON calls
BEGIN
    UPDATE call_months
        SET calls = calls - 1, seconds = seconds - COALESCE(OLD.duration_seconds, 0),
            last_started_at = CASE WHEN last_started_at = OLD.started_at THEN
                (SELECT MAX(c.started_at) FROM calls c WHERE c.user_id = OLD.user_id
                 AND substr(c.started_at, 1, 7) = substr(OLD.started_at, 1, 7))
                ELSE last_started_at END
        WHERE user_id = OLD.user_id AND month = substr(OLD.started_at, 1, 7);
END;

CREATE TRIGGER calls_months_moved AFTER UPDATE OF user_id, started_at ON calls
WHEN NEW.user_id <> OLD.user_id OR NEW.started_at <> OLD.started_at
BEGIN
    UPDATE call_months
        SET calls = calls - 1, seconds = seconds - COALESCE(OLD.duration_seconds, 0),
            last_started_at = CASE WHEN last_started_at = OLD.started_at THEN
                (SELECT MAX(c.started_at) FROM calls c WHERE c.user_id = OLD.user_id
                 AND substr(c.started_at, 1, 7) = substr(OLD.started_at, 1, 7))
                ELSE last_started_at END
        WHERE user_id = OLD.user_id AND month = substr(OLD.started_at, 1, 7);
    INSERT INTO call_months (user_id, month, calls, seconds, last_started_at)
        VALUES (NEW.user_id, substr(NEW.started_at, 1, 7), 1, COALESCE(NEW.duration_seconds, 0),
                NEW.started_at)
        ON CONFLICT (user_id, month) DO UPDATE
        SET calls = calls + 1, seconds = seconds + excluded.seconds,
            last_started_at = max(COALESCE(last_started_at, excluded.last_started_at),
                                  excluded.last_started_at);
END;

INSERT INTO call_months (user_id, month, calls, seconds, last_started_at)
    SELECT user_id, substr(started_at, 1, 7), COUNT(*), COALESCE(SUM(duration_seconds), 0),
           MAX(started_at)
    FROM calls WHERE true GROUP BY user_id, substr(started_at, 1, 7);

-- 0021's index served the month ranges this table replaces; calls_user_started_idx stays (a
-- member's calls, newest first).
DROP INDEX calls_user_started_seconds_idx;
