//! DNS TXT look-ups through the hickory resolver (pure Rust, no OpenSSL): the system's resolver by
//! default, or one name server (`DNS_RESOLVER=host:port`, how tests reach their local server).
//! Nothing is cached: a record just published, or just removed, counts at the next look-up.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hickory_resolver::config::{NameServerConfigGroup, ResolverConfig, ResolverOpts};
use hickory_resolver::name_server::TokioConnectionProvider;
use hickory_resolver::TokioResolver;

/// A look-up that could not be answered (no server, a timeout, a server failure). A name with no
/// TXT record is not an error: it has none.
#[derive(Debug, thiserror::Error)]
#[error("the DNS look-up failed: {0}")]
pub struct DnsError(String);

#[derive(Clone)]
pub struct Dns {
    resolver: Arc<TokioResolver>,
}

fn options(mut o: ResolverOpts) -> ResolverOpts {
    o.cache_size = 0;
    o.attempts = 2;
    o.timeout = Duration::from_secs(3);
    o
}

impl Dns {
    /// The system's resolver (`/etc/resolv.conf`). Without a readable configuration every
    /// look-up fails (and says why) rather than asking a public resolver nobody chose.
    pub fn system() -> Dns {
        let mut builder = TokioResolver::builder_tokio().unwrap_or_else(|e| {
            tracing::warn!(error = %e, "no system DNS configuration: domain look-ups will fail; set DNS_RESOLVER");
            TokioResolver::builder_with_config(
                ResolverConfig::new(),
                TokioConnectionProvider::default(),
            )
        });
        // The system's options (ndots, rotation) as read; ours override the few we need.
        let opts = builder.options_mut();
        *opts = options(opts.clone());
        Dns {
            resolver: Arc::new(builder.build()),
        }
    }

    /// One name server at `addr` (UDP, then TCP for long answers).
    pub fn at(addr: SocketAddr) -> Dns {
        let servers = NameServerConfigGroup::from_ips_clear(&[addr.ip()], addr.port(), true);
        let config = ResolverConfig::from_parts(None, Vec::new(), servers);
        let resolver =
            TokioResolver::builder_with_config(config, TokioConnectionProvider::default())
                .with_options(options(ResolverOpts::default()))
                .build();
        Dns {
            resolver: Arc::new(resolver),
        }
    }

    /// `DNS_RESOLVER`'s server when set, else the system's.
    pub fn from_setting(addr: Option<SocketAddr>) -> Dns {
        addr.map_or_else(Dns::system, Dns::at)
    }

    /// The TXT records at `name` (a fully qualified name), each record's strings joined; empty
    /// when the name or its TXT records do not exist.
    pub async fn txt(&self, name: &str) -> Result<Vec<String>, DnsError> {
        let fqdn = format!("{}.", name.trim_end_matches('.'));
        match self.resolver.txt_lookup(fqdn).await {
            Ok(found) => Ok(found
                .iter()
                .map(|txt| {
                    txt.txt_data()
                        .iter()
                        .map(|part| String::from_utf8_lossy(part))
                        .collect::<String>()
                })
                .collect()),
            Err(e) if e.is_no_records_found() || e.is_nx_domain() => Ok(Vec::new()),
            Err(e) => Err(DnsError(e.to_string())),
        }
    }
}
