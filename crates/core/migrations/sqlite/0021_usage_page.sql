-- The usage report a page at a time with the team's totals (issue 28, docs/performance.md "Team
-- scale"). Index names are identical in both schemas.

-- A member's calls and their seconds in a month, read from the index alone: the usage page's and
-- the totals' four ranges per member (count and seconds, this month and the month before) never
-- touch the table. calls_user_started_idx stays for the other readers (it is this one's prefix).
CREATE INDEX calls_user_started_seconds_idx ON calls (user_id, started_at, duration_seconds);
