//! Mail: templates (text and HTML) and delivery. Everything goes through the outbox first; with
//! `SMTP_URL` set, a worker delivers it with retries and back-off; without it, mail stays in the
//! outbox, readable on `/dev/mail` and with `closewise mail list`.

pub mod outbox;
pub mod templates;
pub mod worker;

use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::NewMail;

pub use templates::Template;

/// Percent-encodes everything but `A-Z a-z 0-9 - _ . ! ~ * ' ( )`, as `encodeURIComponent` does.
fn encode_component(raw: &str) -> String {
    raw.bytes()
        .map(|b| match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'!'
            | b'~'
            | b'*'
            | b'\''
            | b'('
            | b')' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Builds outbox rows from templates with links on the configured public base URL.
#[derive(Clone, Debug)]
pub struct Composer {
    base_url: String,
    product: String,
}

impl Composer {
    pub fn new(base_url: &str) -> Self {
        Composer {
            base_url: base_url.trim_end_matches('/').to_string(),
            product: "Closewise".into(),
        }
    }

    /// The site's public base URL, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// A page of the site, without a token (e.g. `/settings#devices`).
    pub fn page(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    pub fn link(&self, path: &str, token: &str) -> String {
        format!("{}{}?token={}", self.base_url, path, token)
    }

    /// `link`, carrying `next` (a return path already checked by `closewise_domain::limits::return_path`)
    /// URL-encoded as the page's `encodeURIComponent` would.
    pub fn link_with_next(&self, path: &str, token: &str, next: Option<&str>) -> String {
        let link = self.link(path, token);
        match next {
            Some(next) => format!("{link}&next={}", encode_component(next)),
            None => link,
        }
    }

    pub fn compose(&self, to: &str, template: Template, now: OffsetDateTime) -> NewMail {
        let rendered = template.render(&self.product, &self.base_url);
        NewMail {
            id: Uuid::now_v7(),
            to: to.to_string(),
            kind: template.kind(),
            subject: rendered.subject,
            text_body: rendered.text,
            html_body: rendered.html,
            link: template.link().map(str::to_string),
            created_at: now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_carries_next_url_encoded() {
        let composer = Composer::new("http://localhost:8080/");
        assert_eq!(
            composer.link_with_next("/verify", "tok", Some("/pricing?checkout=price_1&x=é")),
            "http://localhost:8080/verify?token=tok&next=%2Fpricing%3Fcheckout%3Dprice_1%26x%3D%C3%A9"
        );
        assert_eq!(
            composer.link_with_next("/verify", "tok", None),
            "http://localhost:8080/verify?token=tok"
        );
    }
}
