-- The desktop app's account: named device sessions, browser sign-in codes (loopback + PKCE),
-- device sign-in codes (RFC 8628), calls and the free-trial meter, and operators' call grants.
-- Constraint and index names are identical in the SQLite schema.

-- A session started by the desktop app is a named device. NULL client_id: a web session.
ALTER TABLE sessions ADD COLUMN client_id TEXT;
ALTER TABLE sessions ADD COLUMN device_name TEXT;
ALTER TABLE sessions ADD COLUMN platform TEXT;
ALTER TABLE sessions ADD COLUMN last_seen_at TIMESTAMPTZ;

-- Authorization codes of the browser sign-in: single use, 60 s, bound to the PKCE challenge and
-- the redirect URI. session_id is what the code produced, revoked if the code is replayed.
CREATE TABLE oauth_codes (
    id UUID PRIMARY KEY,
    code_hash TEXT NOT NULL CONSTRAINT oauth_codes_code_hash_key UNIQUE,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    device_name TEXT,
    platform TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ,
    session_id UUID
);
CREATE INDEX oauth_codes_user_idx ON oauth_codes (user_id);

-- Device sign-in requests: the device code is stored hashed; the user code (8 characters,
-- normalised: upper case, no dash) is unique among all requests, live or not.
CREATE TABLE device_codes (
    id UUID PRIMARY KEY,
    device_code_hash TEXT NOT NULL CONSTRAINT device_codes_device_code_hash_key UNIQUE,
    user_code TEXT NOT NULL CONSTRAINT device_codes_user_code_key UNIQUE,
    client_id TEXT NOT NULL,
    device_name TEXT NOT NULL,
    platform TEXT NOT NULL,
    status TEXT NOT NULL CONSTRAINT device_codes_status_check
        CHECK (status IN ('pending', 'approved', 'denied', 'consumed')),
    user_id UUID REFERENCES users (id) ON DELETE CASCADE,
    session_id UUID,
    -- Seconds the client must wait between polls; grows by 5 on each slow_down.
    interval_secs INTEGER NOT NULL,
    -- Unix milliseconds of the last poll, NULL before the first.
    last_polled_at_ms BIGINT,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    decided_at TIMESTAMPTZ
);
CREATE INDEX device_codes_expires_idx ON device_codes (expires_at);

-- Calls made with the desktop app. free: started under the Free Trial (counts against its
-- calls, capped at max_seconds). Idempotent by (user_id, client_call_id).
CREATE TABLE calls (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_call_id TEXT NOT NULL,
    session_id UUID,
    free BOOLEAN NOT NULL,
    max_seconds INTEGER,
    started_at TIMESTAMPTZ NOT NULL,
    last_heartbeat_at TIMESTAMPTZ NOT NULL,
    ended_at TIMESTAMPTZ,
    ended_reason TEXT,
    duration_seconds INTEGER,
    CONSTRAINT calls_user_client_call_key UNIQUE (user_id, client_call_id)
);
CREATE INDEX calls_user_started_idx ON calls (user_id, started_at);

-- Extra free calls an operator granted (closewise usage grant), each with its reason.
CREATE TABLE call_grants (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    calls INTEGER NOT NULL CONSTRAINT call_grants_calls_check CHECK (calls > 0),
    actor TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX call_grants_user_idx ON call_grants (user_id);
