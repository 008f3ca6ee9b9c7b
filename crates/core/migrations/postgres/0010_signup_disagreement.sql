-- Pre-hijacking, the other order (issue 22, item 2): how many sign-ups recorded a password for an
-- unconfirmed address. With more than one, no verification link activates any of them: the link
-- confirms the address and the clicker chooses the password (closewise_domain::signup).
-- A count on the user, not the tokens: expired links may be swept, the sign-ups still happened.
ALTER TABLE users ADD COLUMN signup_passwords INTEGER NOT NULL DEFAULT 1;

-- Unconfirmed addresses signed up for more than once before this migration already disagree.
UPDATE users SET signup_passwords = (
    SELECT COUNT(DISTINCT t.password_hash) FROM email_tokens t
    WHERE t.user_id = users.id AND t.kind = 'verification' AND t.password_hash IS NOT NULL
)
WHERE email_confirmed_at IS NULL AND (
    SELECT COUNT(DISTINCT t.password_hash) FROM email_tokens t
    WHERE t.user_id = users.id AND t.kind = 'verification' AND t.password_hash IS NOT NULL
) > 1;
