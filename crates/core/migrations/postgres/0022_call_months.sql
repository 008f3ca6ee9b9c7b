-- Each member's calls per month, kept by the database with every write to `calls` (issue 28,
-- docs/performance.md "Team scale"): the usage report and its team totals read a member's months
-- here instead of ranging over their calls. `month` is the UTC month the calls started in,
-- `YYYY-MM`; `seconds` counts the calls that have ended (`duration_seconds`), as the report does;
-- `last_started_at` is the newest call of the month (a member's newest call, and whether they
-- called since the idle cutoff). Table and column names are identical in both schemas; here one
-- trigger (`calls_months`) runs one function, SQLite has one trigger per event (`calls_months_*`).
CREATE TABLE call_months (
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month TEXT NOT NULL,
    calls BIGINT NOT NULL,
    seconds BIGINT NOT NULL,
    last_started_at TIMESTAMPTZ,
    PRIMARY KEY (user_id, month)
);

CREATE FUNCTION call_months_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A call ended (or its duration corrected): only the month's seconds change.
    IF TG_OP = 'UPDATE' AND NEW.user_id = OLD.user_id AND NEW.started_at = OLD.started_at THEN
        UPDATE call_months
            SET seconds = seconds - COALESCE(OLD.duration_seconds, 0)
                + COALESCE(NEW.duration_seconds, 0)
            WHERE user_id = NEW.user_id
              AND month = to_char(NEW.started_at AT TIME ZONE 'UTC', 'YYYY-MM');
        RETURN NULL;
    END IF;
    -- The call leaves its month (deleted, or moved): the month's newest call is found again
    -- when it was this one.
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE call_months
            SET calls = calls - 1, seconds = seconds - COALESCE(OLD.duration_seconds, 0),
                last_started_at = CASE WHEN last_started_at = OLD.started_at THEN
                    (SELECT MAX(c.started_at) FROM calls c WHERE c.user_id = OLD.user_id
                     AND c.started_at >= date_trunc('month', OLD.started_at AT TIME ZONE 'UTC')
                         AT TIME ZONE 'UTC'
                     AND c.started_at < (date_trunc('month', OLD.started_at AT TIME ZONE 'UTC')
                         + INTERVAL '1 month') AT TIME ZONE 'UTC')
                    ELSE last_started_at END
            WHERE user_id = OLD.user_id
              AND month = to_char(OLD.started_at AT TIME ZONE 'UTC', 'YYYY-MM');
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO call_months (user_id, month, calls, seconds, last_started_at)
            VALUES (NEW.user_id, to_char(NEW.started_at AT TIME ZONE 'UTC', 'YYYY-MM'), 1,
                    COALESCE(NEW.duration_seconds, 0), NEW.started_at)
            ON CONFLICT (user_id, month) DO UPDATE
            SET calls = call_months.calls + 1, seconds = call_months.seconds + EXCLUDED.seconds,
                last_started_at = GREATEST(call_months.last_started_at, EXCLUDED.last_started_at);
    END IF;
    RETURN NULL;
END
$$;

-- A heartbeat (`last_heartbeat_at`) changes none of these columns and fires nothing.
CREATE TRIGGER calls_months AFTER INSERT OR DELETE OR UPDATE OF user_id, started_at, duration_seconds
    ON calls FOR EACH ROW EXECUTE FUNCTION call_months_keep();

INSERT INTO call_months (user_id, month, calls, seconds, last_started_at)
    SELECT user_id, to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM'), COUNT(*),
           COALESCE(SUM(duration_seconds), 0), MAX(started_at)
    FROM calls GROUP BY 1, 2;

-- 0021's index served the month ranges this table replaces; calls_user_started_idx stays (a
-- member's calls, newest first).
DROP INDEX calls_user_started_seconds_idx;
