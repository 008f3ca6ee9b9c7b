//! Mail: templates (text and HTML) and delivery. Everything goes through the outbox first; with
//! `SMTP_URL` set, a worker delivers it with retries and back-off; without it, mail stays in the
//! outbox, readable on `/dev/mail` and with `closewise mail list`.

pub mod templates;
pub mod worker;

use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::NewMail;

pub use templates::Template;

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

    pub fn link(&self, path: &str, token: &str) -> String {
        format!("{}{}?token={}", self.base_url, path, token)
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
