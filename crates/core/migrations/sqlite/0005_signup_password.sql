-- A verification link confirms the password chosen in the sign-up that sent it, not whichever
-- password was stored first (account pre-hijacking). NULL for links that carry no password
-- (reset links, and those made before this column).
ALTER TABLE email_tokens ADD COLUMN password_hash TEXT;
