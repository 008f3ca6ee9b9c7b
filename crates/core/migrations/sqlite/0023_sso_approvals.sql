-- Whether the session that allowed a desktop sign-in (an authorization code) or approved a device
-- request was started by single sign-on. The session the code or request starts is stamped as SSO's
-- (sessions.sso_at) when it was, and where Require SSO applies a code or request approved by any
-- other session starts nothing (403 sso_required).
ALTER TABLE oauth_codes ADD COLUMN sso BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE device_codes ADD COLUMN sso BOOLEAN NOT NULL DEFAULT FALSE;
