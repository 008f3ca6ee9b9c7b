//! What every command shares: the core's services (built once by the composition root), the
//! database's target, the operator, confirmation, and finding an account.

use std::io::{BufRead, IsTerminal, Write};
use std::ops::Deref;

use anyhow::bail;
use closewise_core::actor::Actor;
use closewise_core::app::Services;
use closewise_core::store::schema::Target;
use closewise_core::store::UserRow;
use closewise_domain::email::Email;
use time::OffsetDateTime;

use crate::opt::Reason;
use crate::UsageError;

pub struct Ctx {
    pub services: Services,
    /// The database, as printed before anything else.
    pub target: Target,
    /// Who is acting; resolved before the database is opened for every command that writes an
    /// audit row, None for the others.
    pub actor: Option<String>,
}

/// `ctx.accounts`, `ctx.mfa`...: the services read through.
impl Deref for Ctx {
    type Target = Services;
    fn deref(&self) -> &Services {
        &self.services
    }
}

impl Ctx {
    pub fn now(&self) -> OffsetDateTime {
        self.clock.now()
    }

    /// The operator's name, for an audit row.
    pub fn actor(&self) -> anyhow::Result<String> {
        match &self.actor {
            Some(a) => Ok(a.clone()),
            None => bail!("no actor for the audit trail; pass --actor or set CLOSEWISE_ACTOR"),
        }
    }

    /// The operator acting, with the command's reason.
    pub fn operator(&self, reason: &Reason) -> anyhow::Result<Actor> {
        Ok(Actor::operator(self.actor()?, reason.reason.clone()))
    }

    /// The operator acting, for a change whose reason the command requires.
    pub fn operator_because(&self, reason: impl Into<String>) -> anyhow::Result<Actor> {
        Ok(Actor::operator(self.actor()?, Some(reason.into())))
    }

    /// The operator reading (no audit row): named when known.
    pub fn reader(&self) -> Actor {
        Actor::operator(
            self.actor.clone().unwrap_or_else(|| "operator".into()),
            None,
        )
    }

    /// Asks before a change unless `--yes`. Without a terminal there is nobody to ask, so it
    /// refuses: a piped `yes` must not change a database by accident.
    pub fn confirm(&self, yes: bool, question: &str) -> anyhow::Result<()> {
        if yes {
            return Ok(());
        }
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            bail!(
                "not confirmed, nothing changed: standard input is not a terminal, so closewise \
                 cannot ask; pass --yes to make this change on {}",
                self.target
            );
        }
        eprint!("{question} (on {}) [y/N] ", self.target);
        std::io::stderr().flush()?;
        let mut answer = String::new();
        stdin.lock().read_line(&mut answer)?;
        if matches!(answer.trim().to_lowercase().as_str(), "y" | "yes") {
            Ok(())
        } else {
            bail!("not confirmed, nothing changed; answer y, or pass --yes to skip the question")
        }
    }

    /// The account with this address; a malformed address is a usage error, an unknown one a
    /// failure that says how to find the right one.
    pub async fn user(&self, raw: &str) -> anyhow::Result<UserRow> {
        let email = parse_email(raw)?;
        match self.accounts.find(email.as_str()).await? {
            Some(u) => Ok(u),
            None => bail!(
                "no account with the address {email}; check the spelling, or find it with `closewise users list`"
            ),
        }
    }

    /// The account with this address or user id.
    pub async fn user_by_email_or_id(&self, raw: &str) -> anyhow::Result<UserRow> {
        let Ok(id) = uuid::Uuid::parse_str(raw.trim()) else {
            return self.user(raw).await;
        };
        match self.accounts.find_by_id(id).await? {
            Some(u) => Ok(u),
            None => bail!(
                "no account with the id {id}; find it with `closewise users list` or `closewise teams show TEAM`"
            ),
        }
    }
}

pub fn parse_email(raw: &str) -> anyhow::Result<Email> {
    Email::parse(raw).map_err(|e| {
        UsageError(format!(
            "{raw:?} is not an e-mail address ({e}); write it as name@example.com"
        ))
        .into()
    })
}
