-- Team pages at a thousand seats (issue 28, docs/performance.md "Team scale"). Index names are
-- identical in the PostgreSQL schema.

-- The team an audit row is about (its details' top-level "team_id"), so a team's activity is an
-- index range instead of a scan of every row's JSON. Written by the store with each row.
ALTER TABLE audit_log ADD COLUMN team_id BLOB;
UPDATE audit_log
   SET team_id = unhex(replace(json_extract(details, '$.team_id'), '-', ''))
 WHERE details LIKE '%"team_id":"%' AND json_valid(details)
   AND length(json_extract(details, '$.team_id')) = 36;
CREATE INDEX audit_log_team_idx ON audit_log (team_id, created_at, id);

-- The members and invites lists, a page at a time in the order they joined or were sent.
CREATE INDEX team_members_team_joined_idx ON team_members (team_id, joined_at, user_id);
CREATE INDEX team_invites_team_created_idx ON team_invites (team_id, created_at, id);
