-- The proration dates a seats preview issued to a team, and when (Unix milliseconds): a seat
-- change may name only one of these, issued within the last ten minutes
-- (closewise_domain::team_billing::proration_date_accepted). Rows older than that are deleted
-- whenever the team is issued a new one. Table and column names are identical in both schemas.
CREATE TABLE proration_quotes (
    team_id UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    proration_date BIGINT NOT NULL,
    issued_at_ms BIGINT NOT NULL,
    PRIMARY KEY (team_id, proration_date)
);
