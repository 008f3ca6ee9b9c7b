//! Authenticator-app codes: HOTP (RFC 4226) over the time step of TOTP (RFC 6238) — HMAC-SHA-1,
//! 6 digits, 30-second steps, one step of drift each way — and the RFC 4648 base32 the apps read
//! the secret in. A code is accepted only for a step later than the last one accepted (replay).

use hmac::{Hmac, Mac};
use sha1::Sha1;
use time::OffsetDateTime;

/// Seconds per time step.
pub const PERIOD: i64 = 30;
/// Digits of a code.
pub const DIGITS: u32 = 6;
/// Steps of clock drift accepted each way.
pub const SKEW: i64 = 1;
/// Bytes of a new secret (160 bits, RFC 4226's recommendation).
pub const SECRET_LEN: usize = 20;
/// The issuer the apps show.
pub const ISSUER: &str = "Closewise";

/// HOTP (RFC 4226 §5.3): the `digits`-digit code of `counter`.
pub fn hotp(secret: &[u8], counter: u64, digits: u32) -> u32 {
    let mut mac = Hmac::<Sha1>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(&counter.to_be_bytes());
    let h = mac.finalize().into_bytes();
    let offset = (h[19] & 0x0f) as usize;
    let bin = u32::from_be_bytes([
        h[offset] & 0x7f,
        h[offset + 1],
        h[offset + 2],
        h[offset + 3],
    ]);
    bin % 10u32.pow(digits)
}

/// The TOTP time step `now` falls in (RFC 6238 §4.2, T0 = 0).
pub fn time_step(now: OffsetDateTime) -> i64 {
    now.unix_timestamp().div_euclid(PERIOD)
}

/// The 6-digit code of `step`, zero-padded.
pub fn code_at(secret: &[u8], step: i64) -> String {
    format!(
        "{:0width$}",
        hotp(secret, step as u64, DIGITS),
        width = DIGITS as usize
    )
}

/// Why a code is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejected {
    /// Not six digits.
    Malformed,
    /// Not the code of any step within the drift.
    Wrong,
    /// The code of a step already accepted (or earlier): a replay.
    Replayed,
}

/// Six digits after trimming and dropping inner spaces ("123 456" as apps show it), or `None`.
pub fn parse_code(raw: &str) -> Option<String> {
    let code: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    (code.len() == DIGITS as usize && code.bytes().all(|b| b.is_ascii_digit())).then_some(code)
}

/// Checks `raw` against the steps around `now`: the step it matches, which must be later than
/// `last_step` (the last one accepted for this secret).
pub fn verify(
    secret: &[u8],
    raw: &str,
    now: OffsetDateTime,
    last_step: Option<i64>,
) -> Result<i64, Rejected> {
    let code = parse_code(raw).ok_or(Rejected::Malformed)?;
    let current = time_step(now);
    let mut replayed = false;
    for step in current - SKEW..=current + SKEW {
        if constant_time_eq(code_at(secret, step).as_bytes(), code.as_bytes()) {
            if last_step.is_some_and(|last| step <= last) {
                replayed = true;
            } else {
                return Ok(step);
            }
        }
    }
    Err(if replayed {
        Rejected::Replayed
    } else {
        Rejected::Wrong
    })
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// RFC 4648 base32, upper case, without padding (as authenticator apps expect).
pub fn base32_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &b in bytes {
        buffer = (buffer << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(BASE32[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(BASE32[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// Decodes base32 (any case, spaces and padding ignored); `None` on another character.
pub fn base32_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.chars().filter(|c| !c.is_whitespace() && *c != '=') {
        let c = c.to_ascii_uppercase() as u8;
        let v = BASE32.iter().position(|&x| x == c)? as u32;
        buffer = (buffer << 5) | v;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
        buffer &= (1 << bits) - 1;
    }
    Some(out)
}

/// The `otpauth://` URI an app scans (Key Uri Format): label `Closewise:EMAIL`.
pub fn otpauth_uri(email: &str, secret_base32: &str) -> String {
    format!(
        "otpauth://totp/{ISSUER}:{}?secret={secret_base32}&issuer={ISSUER}&algorithm=SHA1&digits={DIGITS}&period={PERIOD}",
        percent_encode(email)
    )
}

/// Percent-encodes all but unreserved characters and `@`.
fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'@' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
#[path = "totp_tests.rs"]
mod tests;
