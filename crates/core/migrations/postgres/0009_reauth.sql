-- Re-authentication ("sudo mode"): when the password was last entered on the session (a password
-- sign-in or POST /api/auth/reauthenticate). Refreshing keeps it; NULL: never (device sessions).
ALTER TABLE sessions ADD COLUMN password_at TIMESTAMPTZ;
