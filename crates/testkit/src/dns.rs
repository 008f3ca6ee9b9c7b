//! A local DNS server for tests (hickory-server) on a free UDP port of 127.0.0.1, answering the TXT
//! records a test sets ([`TxtServer::set`]) and nothing else (an empty answer), so that domain
//! verification is tested end to end without a packet leaving the machine. Point the code under
//! test at [`TxtServer::addr`] (`DNS_RESOLVER`, `Dns::at`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use hickory_server::authority::MessageResponseBuilder;
use hickory_server::proto::op::{Header, MessageType, OpCode, ResponseCode};
use hickory_server::proto::rr::rdata::TXT;
use hickory_server::proto::rr::{Name, RData, Record, RecordType};
use hickory_server::server::{Request, RequestHandler, ResponseHandler, ResponseInfo};
use hickory_server::ServerFuture;

type Records = Arc<Mutex<HashMap<String, Vec<String>>>>;

/// The running server; it stops when dropped.
pub struct TxtServer {
    pub addr: SocketAddr,
    records: Records,
    task: tokio::task::JoinHandle<()>,
}

fn key(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

impl TxtServer {
    /// Starts the server on a free port (inside a Tokio runtime).
    pub async fn start() -> TxtServer {
        let socket = tokio::net::UdpSocket::bind("127.0.0.1:0")
            .await
            .expect("bind a UDP port for the test DNS server");
        let addr = socket.local_addr().expect("the test DNS server's address");
        let records: Records = Arc::default();
        let mut server = ServerFuture::new(Handler {
            records: records.clone(),
        });
        server.register_socket(socket);
        let task = tokio::spawn(async move {
            let _ = server.block_until_done().await;
        });
        TxtServer {
            addr,
            records,
            task,
        }
    }

    /// Serves `values` (one TXT record each) at `name`; none removes the name.
    pub fn set(&self, name: &str, values: &[&str]) {
        let mut records = self.records.lock().expect("records");
        if values.is_empty() {
            records.remove(&key(name));
        } else {
            records.insert(key(name), values.iter().map(|v| v.to_string()).collect());
        }
    }

    /// Removes every record.
    pub fn clear(&self) {
        self.records.lock().expect("records").clear();
    }
}

impl Drop for TxtServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

struct Handler {
    records: Records,
}

#[async_trait::async_trait]
impl RequestHandler for Handler {
    async fn handle_request<R: ResponseHandler>(
        &self,
        request: &Request,
        mut response: R,
    ) -> ResponseInfo {
        let mut header = Header::response_from_request(request.header());
        header.set_authoritative(true);
        let builder = MessageResponseBuilder::from_message_request(request);
        let query = match request.request_info() {
            Ok(info) if request.op_code() == OpCode::Query => info.query.clone(),
            _ => {
                header.set_response_code(ResponseCode::NotImp);
                return send(&mut response, builder.build_no_records(header)).await;
            }
        };
        let name: Name = query.name().into();
        let answers: Vec<Record> = if query.query_type() == RecordType::TXT {
            let found = self
                .records
                .lock()
                .expect("records")
                .get(&key(&name.to_ascii()))
                .cloned()
                .unwrap_or_default();
            found
                .into_iter()
                .map(|v| Record::from_rdata(name.clone(), 0, RData::TXT(TXT::new(vec![v]))))
                .collect()
        } else {
            Vec::new()
        };
        header.set_message_type(MessageType::Response);
        let message = builder.build(header, answers.iter(), [], [], []);
        send(&mut response, message).await
    }
}

async fn send<'a, R: ResponseHandler>(
    response: &mut R,
    message: hickory_server::authority::MessageResponse<
        '_,
        'a,
        impl Iterator<Item = &'a Record> + Send + 'a,
        impl Iterator<Item = &'a Record> + Send + 'a,
        impl Iterator<Item = &'a Record> + Send + 'a,
        impl Iterator<Item = &'a Record> + Send + 'a,
    >,
) -> ResponseInfo {
    match response.send_response(message).await {
        Ok(info) => info,
        Err(_) => {
            let mut header = Header::new();
            header.set_response_code(ResponseCode::ServFail);
            header.into()
        }
    }
}
