-- Single sign-on as real providers behave, and SAML 2.0 beside OpenID Connect (docs/teams.md
-- "Single sign-on"). Column and table names are identical in both schemas.
-- team_sso.email_claim: the OpenID claim that carries a person's address
-- (closewise_domain::sso::EmailClaim: 'email', 'preferred_username' or 'upn');
-- userinfo_endpoint, from the discovery document, serves the claims a conformant provider leaves
-- out of the ID token (NULL when the provider names none).
ALTER TABLE team_sso ADD COLUMN email_claim TEXT NOT NULL DEFAULT 'email';
ALTER TABLE team_sso ADD COLUMN userinfo_endpoint TEXT;
-- protocol: 'oidc' or 'saml', one connection per team. A SAML connection keeps the IdP's entity ID
-- in issuer and its HTTP-Redirect SSO URL in authorization_endpoint (the OpenID columns it does not
-- use are empty); saml_certificates: the IdP's signing certificates, a JSON array of base64 DER
-- (one or two, during a rotation); saml_metadata_url: where the metadata was read, when it was
-- given as a URL; saml_email_attribute: the attribute carrying the address (NULL: the NameID);
-- saml_idp_initiated: unsolicited responses (no AuthnRequest of ours) accepted.
ALTER TABLE team_sso ADD COLUMN protocol TEXT NOT NULL DEFAULT 'oidc';
ALTER TABLE team_sso ADD COLUMN saml_certificates TEXT;
ALTER TABLE team_sso ADD COLUMN saml_metadata_url TEXT;
ALTER TABLE team_sso ADD COLUMN saml_email_attribute TEXT;
ALTER TABLE team_sso ADD COLUMN saml_idp_initiated BOOLEAN NOT NULL DEFAULT FALSE;
-- A SAML sign-in's AuthnRequest ID is its nonce; saml_email: the address its verified response
-- vouched for, set by the ACS and read by the callback in the browser that started the sign-in.
ALTER TABLE sso_logins ADD COLUMN saml_email TEXT;
-- The assertions a team's ACS accepted, each once: kept until they expire.
CREATE TABLE saml_assertions (
    team_id UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assertion_id TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (team_id, assertion_id)
);
CREATE INDEX saml_assertions_expires_idx ON saml_assertions (expires_at);
