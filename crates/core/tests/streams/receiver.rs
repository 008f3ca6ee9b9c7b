//! A destination on a local port: records each request (headers and body) and answers 200, or
//! 500 while told to fail. Plain HTTP/1.1, one request per connection.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Clone, Debug)]
pub struct Request {
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub struct Receiver {
    port: u16,
    seen: Arc<Mutex<Vec<Request>>>,
    fail: Arc<AtomicBool>,
}

impl Receiver {
    pub async fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let fail = Arc::new(AtomicBool::new(false));
        let (s, f) = (seen.clone(), fail.clone());
        tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                let (s, f) = (s.clone(), f.clone());
                tokio::spawn(async move {
                    let (read, mut write) = socket.into_split();
                    let mut reader = BufReader::new(read);
                    let mut line = String::new();
                    if reader.read_line(&mut line).await.is_err() {
                        return;
                    }
                    let mut headers = Vec::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                            return;
                        }
                        let l = line.trim_end();
                        if l.is_empty() {
                            break;
                        }
                        if let Some((n, v)) = l.split_once(':') {
                            headers.push((n.trim().to_owned(), v.trim().to_owned()));
                        }
                    }
                    let len: usize = headers
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
                        .and_then(|(_, v)| v.parse().ok())
                        .unwrap_or(0);
                    let mut body = vec![0u8; len];
                    if reader.read_exact(&mut body).await.is_err() {
                        return;
                    }
                    let failing = f.load(Ordering::SeqCst);
                    s.lock().unwrap().push(Request {
                        headers,
                        body: String::from_utf8_lossy(&body).into_owned(),
                    });
                    let status = if failing {
                        "500 Internal Server Error"
                    } else {
                        "200 OK"
                    };
                    let answer = format!(
                        "HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                    );
                    let _ = write.write_all(answer.as_bytes()).await;
                    let _ = write.shutdown().await;
                });
            }
        });
        Receiver { port, seen, fail }
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hook", self.port)
    }

    pub fn fail_all(&self, fail: bool) {
        self.fail.store(fail, Ordering::SeqCst);
    }

    /// What was received so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }
}
