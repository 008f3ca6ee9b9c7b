//! The redirect rules: Stripe may only send users back to our own origin, so a crafted
//! `success_url` cannot turn checkout into an open redirect; and the `next` path carried through
//! sign-up's verification mail must be a path of this site (`return_path`).
//!
//! URLs are parsed with the `url` crate (the WHATWG URL standard, as browsers parse them), so tricks
//! such as `http://localhost:8080@evil.example`, `http:\\evil.example` or `//evil.example` resolve to
//! the host a browser would visit.

use url::Url;

/// True when `candidate` is an absolute http(s) URL whose scheme, host and port equal those of
/// `base` (e.g. "http://localhost:8080"). Default ports count as written (`https://a.com` and
/// `https://a.com:443` are one origin). URLs carrying a user name or password are refused.
pub fn same_origin(base: &str, candidate: &str) -> bool {
    let (Ok(base), Ok(candidate)) = (Url::parse(base), Url::parse(candidate)) else {
        return false;
    };
    let web = |u: &Url| matches!(u.scheme(), "http" | "https") && u.host().is_some();
    web(&base)
        && web(&candidate)
        && candidate.username().is_empty()
        && candidate.password().is_none()
        && base.origin() == candidate.origin()
}

/// The longest `next` path carried through sign-up and its verification mail.
pub const RETURN_PATH_MAX_LEN: usize = 1024;

/// The path a visitor returns to after verifying and signing in (`next`), when it is a path of this
/// site: "/pricing?checkout=…", never "//host", "/\\host", "https://…", "javascript:…" or anything with
/// a control character or a backslash (browsers strip the first and read the second as "/"). The web
/// applies the same rule (`safeRedirect`), so the link in the mail and the page agree.
pub fn return_path(candidate: &str) -> Option<&str> {
    let plain = !candidate.chars().any(|c| c.is_control() || c == '\\');
    if !candidate.starts_with('/')
        || candidate.starts_with("//")
        || !plain
        || candidate.len() > RETURN_PATH_MAX_LEN
    {
        return None;
    }
    let base = Url::parse("http://return.invalid/").ok()?;
    let joined = base.join(candidate).ok()?;
    (joined.origin() == base.origin()).then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn same_origin_paths_are_return_paths() {
        for ok in [
            "/",
            "/pricing?checkout=price_closewise_monthly",
            "/activate?code=AB12#x",
            "/download",
            "/invite?token=QWxhZGRpbjpvcGVuIHNlc2FtZQ",
            "/team",
        ] {
            assert_eq!(return_path(ok), Some(ok), "{ok} should be kept");
        }
    }

    #[test]
    fn anything_that_could_leave_the_site_is_not_a_return_path() {
        for bad in [
            "",
            "pricing",
            "//evil.example/",
            "/\\evil.example",
            "/\tevil",
            "/\t/evil.example",
            "/x\ny",
            "https://evil.example/",
            "javascript:alert(1)",
            " /pricing",
        ] {
            assert_eq!(return_path(bad), None, "{bad:?} should be refused");
        }
        assert_eq!(
            return_path(&format!("/{}", "a".repeat(RETURN_PATH_MAX_LEN))),
            None
        );
    }

    const BASE: &str = "http://localhost:8080";

    #[test]
    fn paths_queries_and_fragments_on_the_same_origin_are_allowed() {
        for ok in [
            "http://localhost:8080",
            "http://localhost:8080/",
            "http://localhost:8080/success?session_id={CHECKOUT_SESSION_ID}",
            "http://localhost:8080/pricing#plans",
            "HTTP://LOCALHOST:8080/pricing",
        ] {
            assert!(same_origin(BASE, ok), "{ok} should be allowed");
        }
    }

    #[test]
    fn other_schemes_hosts_and_ports_are_refused() {
        for bad in [
            "https://localhost:8080/success",
            "http://localhost:8081/success",
            "http://localhost/success",
            "http://127.0.0.1:8080/success",
            "http://evil.example/success",
            "http://localhost:8080.evil.example/",
            "http://localhost:8080@evil.example/",
            "http://user:pass@localhost:8080/",
            "http://user@localhost:8080/",
            "http://:pass@localhost:8080/",
            "http:\\\\evil.example\\",
            "//evil.example/success",
            "/success",
            "success",
            "",
            "javascript:alert(1)",
            "data:text/html,hi",
            "ftp://localhost:8080/",
        ] {
            assert!(!same_origin(BASE, bad), "{bad:?} should be refused");
        }
    }

    #[test]
    fn default_ports_match_whether_written_or_not() {
        assert!(same_origin(
            "https://closewise.example",
            "https://closewise.example:443/x"
        ));
        assert!(same_origin(
            "http://closewise.example:80",
            "http://closewise.example/x"
        ));
        assert!(!same_origin(
            "https://closewise.example",
            "http://closewise.example/x"
        ));
    }

    #[test]
    fn a_base_that_is_not_a_web_origin_allows_nothing() {
        assert!(!same_origin("", "http://localhost:8080/"));
        assert!(!same_origin("localhost:8080", "http://localhost:8080/"));
        assert!(!same_origin("file:///tmp", "file:///tmp/x"));
    }

    proptest! {
        #[test]
        fn any_path_under_the_base_is_allowed(path in "(/[a-zA-Z0-9._~-]{0,12}){0,4}", query in "(\\?[a-z]{1,5}=[a-zA-Z0-9]{0,8})?") {
            let candidate = format!("{BASE}{path}{query}");
            prop_assert!(same_origin(BASE, &candidate), "{}", candidate);
        }

        #[test]
        fn any_other_host_is_refused(host in "[a-z]{1,12}(\\.[a-z]{2,6}){0,2}", port in proptest::option::of(1u16..)) {
            prop_assume!(host != "localhost" || port != Some(8080));
            let candidate = match port {
                Some(p) => format!("http://{host}:{p}/success"),
                None => format!("http://{host}/success"),
            };
            prop_assert!(!same_origin(BASE, &candidate), "{}", candidate);
        }
    }
}
