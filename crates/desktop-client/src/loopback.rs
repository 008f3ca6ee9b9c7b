//! The loopback redirect of a browser sign-in (RFC 8252 §7.3): a one-shot HTTP listener on
//! `127.0.0.1:{port}` that waits for `GET /callback?code=…&state=…`. Only the request line is
//! read; stray requests (a browser's `/favicon.ico`, a port scan) get a 404 and are ignored, and a
//! callback with another `state` (which any web page can send) gets a 400 and is ignored too.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::error::{Error, Result};
use crate::pkce::constant_time_eq;

/// What a request to the listener asked.
#[derive(Debug, PartialEq, Eq)]
pub enum Callback {
    /// `?code=…&state=…`: the user allowed.
    Code { code: String, state: String },
    /// `?error=…&state=…`: the user denied (`access_denied`) or the request was refused.
    Error {
        error: String,
        state: Option<String>,
    },
}

/// Parses an HTTP request head. `None` for anything that is not `GET /callback` with a code or an
/// error.
pub fn parse_request(head: &str) -> Option<Callback> {
    let line = head.lines().next()?;
    let mut parts = line.split(' ');
    let (method, target) = (parts.next()?, parts.next()?);
    if method != "GET" {
        return None;
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if path != "/callback" {
        return None;
    }
    let mut code = None;
    let mut state = None;
    let mut error = None;
    for (k, v) in url::form_urlencoded::parse(query.as_bytes()) {
        match &*k {
            "code" => code = Some(v.into_owned()),
            "state" => state = Some(v.into_owned()),
            "error" => error = Some(v.into_owned()),
            _ => {}
        }
    }
    match (code, error) {
        (_, Some(error)) => Some(Callback::Error { error, state }),
        (Some(code), None) => Some(Callback::Code {
            code,
            state: state?,
        }),
        (None, None) => None,
    }
}

/// Checks a callback against the `state` we sent. `Ok(code)` when the user allowed.
pub fn check_callback(callback: Callback, expected_state: &str) -> Result<String> {
    match callback {
        Callback::Code { code, state } if constant_time_eq(&state, expected_state) => Ok(code),
        Callback::Code { .. } => Err(Error::StateMismatch),
        Callback::Error { error, state } => {
            if !state.is_some_and(|s| constant_time_eq(&s, expected_state)) {
                return Err(Error::StateMismatch);
            }
            if error == "access_denied" {
                Err(Error::AccessDenied)
            } else {
                Err(Error::OAuth {
                    message: format!("the sign-in page answered {error}"),
                    code: error,
                })
            }
        }
    }
}

/// The listener, bound before the browser opens so the redirect URI names a live port.
pub struct Loopback {
    listener: TcpListener,
    port: u16,
}

impl Loopback {
    pub async fn bind() -> Result<Loopback> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| Error::Browser(format!("cannot listen on 127.0.0.1: {e}")))?;
        let port = listener
            .local_addr()
            .map_err(|e| Error::Browser(e.to_string()))?
            .port();
        Ok(Loopback { listener, port })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port())
    }

    /// Waits for the callback for at most `timeout`; answers the browser a small page and returns
    /// the code once the state matches. Callbacks with another state are answered 400 and do not
    /// end the wait.
    pub async fn wait(self, expected_state: &str, timeout: Duration) -> Result<String> {
        tokio::time::timeout(timeout, self.accept_until_callback(expected_state))
            .await
            .map_err(|_| Error::SignInTimedOut)?
    }

    async fn accept_until_callback(&self, expected_state: &str) -> Result<String> {
        loop {
            let (mut stream, _) = self
                .listener
                .accept()
                .await
                .map_err(|e| Error::Browser(e.to_string()))?;
            // A connection that never sends its head must not hold the sign-in up.
            let head =
                match tokio::time::timeout(Duration::from_secs(5), read_head(&mut stream)).await {
                    Ok(Some(head)) => head,
                    _ => continue,
                };
            let Some(callback) = parse_request(&head) else {
                let _ = respond(&mut stream, "404 Not Found", "Not found.").await;
                continue;
            };
            let result = check_callback(callback, expected_state);
            if let Err(Error::StateMismatch) = result {
                // Not our sign-in's answer: any web page can make the browser load this address,
                // so it must not end the sign-in. The right one may still come until the timeout.
                let _ = respond(
                    &mut stream,
                    "400 Bad Request",
                    "This is not the sign-in the Closewise app is waiting for.",
                )
                .await;
                continue;
            }
            let page = match &result {
                Ok(_) => "Signed in. You can return to the Closewise app.",
                Err(Error::AccessDenied) => {
                    "Sign-in cancelled. You can return to the Closewise app."
                }
                Err(_) => "Sign-in failed. You can return to the Closewise app and try again.",
            };
            let _ = respond(&mut stream, "200 OK", page).await;
            return result;
        }
    }
}

async fn read_head(stream: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    while buf.len() < 8192 {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    String::from_utf8(buf).ok()
}

async fn respond(stream: &mut TcpStream, status: &str, message: &str) -> std::io::Result<()> {
    let body = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Closewise</title></head>\
         <body style=\"font-family:sans-serif;text-align:center;margin-top:4em\">\
         <p>{message}</p></body></html>"
    );
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callback_with_code_and_state_is_parsed_and_decoded() {
        let head = "GET /callback?code=abc%2Bd&state=s1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        assert_eq!(
            parse_request(head),
            Some(Callback::Code {
                code: "abc+d".into(),
                state: "s1".into()
            })
        );
    }

    #[test]
    fn stray_requests_are_not_callbacks() {
        for head in [
            "GET /favicon.ico HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n",
            "POST /callback?code=a&state=b HTTP/1.1\r\n\r\n",
            "GET /callback HTTP/1.1\r\n\r\n",
            "GET /callback?code=a HTTP/1.1\r\n\r\n",
            "GET /callbackx?code=a&state=b HTTP/1.1\r\n\r\n",
            "",
        ] {
            assert_eq!(parse_request(head), None, "{head:?}");
        }
    }

    #[test]
    fn a_matching_state_gives_the_code_and_another_state_is_an_error() {
        let cb = |state: &str| Callback::Code {
            code: "c".into(),
            state: state.into(),
        };
        assert_eq!(check_callback(cb("s"), "s").unwrap(), "c");
        assert!(matches!(
            check_callback(cb("t"), "s"),
            Err(Error::StateMismatch)
        ));
    }

    #[test]
    fn a_denial_is_access_denied_only_with_our_state() {
        let denied = |state: Option<&str>| Callback::Error {
            error: "access_denied".into(),
            state: state.map(Into::into),
        };
        assert!(matches!(
            check_callback(denied(Some("s")), "s"),
            Err(Error::AccessDenied)
        ));
        assert!(matches!(
            check_callback(denied(Some("x")), "s"),
            Err(Error::StateMismatch)
        ));
        assert!(matches!(
            check_callback(denied(None), "s"),
            Err(Error::StateMismatch)
        ));
    }

    async fn get(port: u16, target: &str) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        s.write_all(format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    }

    #[tokio::test]
    async fn the_listener_ignores_a_favicon_request_and_returns_the_code() {
        let lb = Loopback::bind().await.unwrap();
        let port = lb.port();
        assert_eq!(
            lb.redirect_uri(),
            format!("http://127.0.0.1:{port}/callback")
        );
        let waiting = tokio::spawn(lb.wait("st", Duration::from_secs(10)));
        assert!(get(port, "/favicon.ico").await.starts_with("HTTP/1.1 404"));
        let page = get(port, "/callback?code=the-code&state=st").await;
        assert!(page.starts_with("HTTP/1.1 200"));
        assert!(page.contains("You can return to the Closewise app"));
        assert_eq!(waiting.await.unwrap().unwrap(), "the-code");
    }

    #[tokio::test]
    async fn a_callback_with_another_state_is_answered_400_and_the_listener_keeps_waiting() {
        let lb = Loopback::bind().await.unwrap();
        let port = lb.port();
        let waiting = tokio::spawn(lb.wait("st", Duration::from_secs(10)));
        // Any web page can make the browser load these: none may end the sign-in.
        for forged in [
            "/callback?code=c&state=other",
            "/callback?error=access_denied&state=other",
            "/callback?error=access_denied",
            "/callback?code=c&state=",
        ] {
            let page = get(port, forged).await;
            assert!(page.starts_with("HTTP/1.1 400"), "{forged}: {page}");
            assert!(!waiting.is_finished(), "{forged} ended the sign-in");
        }
        let page = get(port, "/callback?code=the-code&state=st").await;
        assert!(page.starts_with("HTTP/1.1 200"));
        assert_eq!(waiting.await.unwrap().unwrap(), "the-code");
    }

    #[tokio::test]
    async fn after_only_forged_callbacks_the_sign_in_times_out() {
        let lb = Loopback::bind().await.unwrap();
        let port = lb.port();
        let waiting = tokio::spawn(lb.wait("st", Duration::from_millis(1500)));
        assert!(get(port, "/callback?code=c&state=other")
            .await
            .starts_with("HTTP/1.1 400"));
        assert!(matches!(waiting.await.unwrap(), Err(Error::SignInTimedOut)));
    }

    #[tokio::test]
    async fn a_denial_with_our_state_ends_the_sign_in() {
        let lb = Loopback::bind().await.unwrap();
        let port = lb.port();
        let waiting = tokio::spawn(lb.wait("st", Duration::from_secs(10)));
        let page = get(port, "/callback?error=access_denied&state=st").await;
        assert!(page.contains("cancelled"));
        assert!(matches!(waiting.await.unwrap(), Err(Error::AccessDenied)));
    }

    #[tokio::test]
    async fn the_listener_gives_up_after_its_timeout() {
        let lb = Loopback::bind().await.unwrap();
        let result = lb.wait("st", Duration::from_millis(50)).await;
        assert!(matches!(result, Err(Error::SignInTimedOut)));
    }
}
