-- Adoption and seats (issue 26, docs/teams.md "Usage"). Table and index names are identical in
-- the other database's schema.

-- The weekly idle-seats mail to a team's owner: one row per team and ISO week (`2026-W48`),
-- written with the mail in one transaction, so a week's mail is sent once whichever replica runs
-- the sweep first. idle: the idle members counted then (0: nothing was mailed).
CREATE TABLE team_idle_mails (
    team_id BLOB NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    week TEXT NOT NULL,
    idle INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (team_id, week)
);

-- A team's activity is read newest first, a page at a time: rows scanned in time order stop at
-- the page's end.
CREATE INDEX audit_log_created_idx ON audit_log (created_at);
