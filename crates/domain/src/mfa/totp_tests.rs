use super::*;
use time::macros::datetime;

/// RFC 4226 appendix D: the secret "12345678901234567890", counters 0..9.
#[test]
fn hotp_matches_rfc_4226_test_vectors() {
    let secret = b"12345678901234567890";
    let expected = [
        755224, 287082, 359152, 969429, 338314, 254676, 287922, 162583, 399871, 520489,
    ];
    for (counter, want) in expected.iter().enumerate() {
        assert_eq!(hotp(secret, counter as u64, 6), *want, "counter {counter}");
    }
}

/// RFC 6238 appendix B (SHA-1 rows): 8-digit codes at the given times.
#[test]
fn totp_matches_rfc_6238_sha1_test_vectors() {
    let secret = b"12345678901234567890";
    let rows = [
        (59, 94287082),
        (1111111109, 7081804),
        (1111111111, 14050471),
        (1234567890, 89005924),
        (2000000000, 69279037),
        (20000000000, 65353130),
    ];
    for (t, want) in rows {
        let now = OffsetDateTime::from_unix_timestamp(t).unwrap();
        assert_eq!(hotp(secret, time_step(now) as u64, 8), want, "T = {t}");
        // The 6-digit code is the same value's last six digits.
        assert_eq!(
            code_at(secret, time_step(now)),
            format!("{:06}", want % 1_000_000)
        );
    }
}

const NOW: OffsetDateTime = datetime!(2026-03-01 12:00:15 UTC);

#[test]
fn one_step_of_drift_is_accepted_each_way_and_no_more() {
    let s = b"an example secret!!!";
    let step = time_step(NOW);
    assert_eq!(verify(s, &code_at(s, step), NOW, None), Ok(step));
    assert_eq!(verify(s, &code_at(s, step - 1), NOW, None), Ok(step - 1));
    assert_eq!(verify(s, &code_at(s, step + 1), NOW, None), Ok(step + 1));
    assert_eq!(
        verify(s, &code_at(s, step - 2), NOW, None),
        Err(Rejected::Wrong)
    );
    assert_eq!(
        verify(s, &code_at(s, step + 2), NOW, None),
        Err(Rejected::Wrong)
    );
}

#[test]
fn a_code_of_a_step_already_accepted_or_earlier_is_a_replay() {
    let s = b"an example secret!!!";
    let step = time_step(NOW);
    let code = code_at(s, step);
    assert_eq!(verify(s, &code, NOW, Some(step)), Err(Rejected::Replayed));
    assert_eq!(
        verify(s, &code_at(s, step - 1), NOW, Some(step)),
        Err(Rejected::Replayed)
    );
    // The next step's code is still good after this one.
    assert_eq!(
        verify(s, &code_at(s, step + 1), NOW, Some(step)),
        Ok(step + 1)
    );
    assert_eq!(verify(s, &code, NOW, Some(step - 1)), Ok(step));
}

#[test]
fn malformed_codes_are_refused_before_any_check() {
    let s = b"an example secret!!!";
    for raw in ["", "12345", "1234567", "12a456", "１２３４５６", "-12345"] {
        assert_eq!(
            verify(s, raw, NOW, None),
            Err(Rejected::Malformed),
            "{raw:?}"
        );
    }
    let code = code_at(s, time_step(NOW));
    let spaced = format!(" {} {} ", &code[..3], &code[3..]);
    assert_eq!(verify(s, &spaced, NOW, None), Ok(time_step(NOW)));
}

#[test]
fn base32_round_trips_and_matches_rfc_4648() {
    assert_eq!(base32_encode(b"foobar"), "MZXW6YTBOI");
    assert_eq!(base32_encode(b"f"), "MY");
    assert_eq!(base32_decode("mzxw6ytboi======").unwrap(), b"foobar");
    assert_eq!(base32_decode("MZXW 6YTB OI").unwrap(), b"foobar");
    assert_eq!(base32_decode("MZ1W"), None);
    let secret: Vec<u8> = (0..SECRET_LEN as u8).collect();
    assert_eq!(base32_decode(&base32_encode(&secret)).unwrap(), secret);
    assert_eq!(base32_encode(&secret).len(), 32);
}

#[test]
fn the_uri_names_the_issuer_account_and_parameters() {
    assert_eq!(
        otpauth_uri("ana+x@example.com", "MZXW6YTBOI"),
        "otpauth://totp/Closewise:ana%2Bx@example.com?secret=MZXW6YTBOI&issuer=Closewise&algorithm=SHA1&digits=6&period=30"
    );
}
