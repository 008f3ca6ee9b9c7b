-- A SAML connection's upkeep by the sweeper (docs/teams.md "Single sign-on"). Column and table
-- names are identical in both schemas.
-- saml_certificate_in_use: the SHA-256 fingerprint of the IdP certificate that verified the last
-- accepted response (NULL before the first); saml_metadata_checked_at: when the daily job last
-- read the metadata URL (NULL: not yet), whether the read worked or not.
ALTER TABLE team_sso ADD COLUMN saml_certificate_in_use TEXT;
ALTER TABLE team_sso ADD COLUMN saml_metadata_checked_at TIMESTAMPTZ;
-- The certificates whose coming expiry the team's owner was mailed about: each once.
CREATE TABLE saml_certificate_mails (
    team_id UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    mailed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (team_id, fingerprint)
);
