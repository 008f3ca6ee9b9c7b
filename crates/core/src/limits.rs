//! The request budgets a command spends on its actor's behalf (how many invitations a member
//! sends, how often one address is mailed, how many DNS look-ups a member starts), behind a port:
//! the API keeps the counters (in memory, or in PostgreSQL shared by every replica) and answers
//! 429 with Retry-After; the CLI's operators are not limited ([`NoLimits`]). Budgets per client
//! address stay at the API's edge: core never sees an address.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A budget a core command spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Invitations (new and resent) per inviter.
    InvitePerInviter,
    /// New invitations per (team, invited address).
    InvitePerAddress,
    /// One resend a minute per (team, invited address).
    InviteResend,
    /// Requests that call Stripe for a user (checkouts, confirmations, portals, previews).
    StripePerUser,
    /// Domain verifications (each a DNS look-up) per user.
    DomainCheckPerUser,
    /// Calls started per user.
    CallStartPerUser,
}

/// Why a budget was not spent.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    /// Spent: try again after `retry_after` seconds.
    #[error("Too many requests. Please try again in {retry_after} seconds.")]
    Limited { retry_after: u64 },
    /// The shared counters (PostgreSQL) did not answer.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

pub type SpendFuture<'a> = Pin<Box<dyn Future<Output = Result<(), LimitError>> + Send + 'a>>;

/// The adapter's counters.
pub trait RateLimits: Send + Sync {
    /// Spends one request of `limit` for `key` (a user id, or `team:address`).
    fn spend<'a>(&'a self, limit: Limit, key: &'a str) -> SpendFuture<'a>;
}

/// No budget at all: the CLI's operators and tests that are not about limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoLimits;

impl RateLimits for NoLimits {
    fn spend<'a>(&'a self, _limit: Limit, _key: &'a str) -> SpendFuture<'a> {
        Box::pin(async { Ok(()) })
    }
}

/// The port as services hold it.
pub type Limits = Arc<dyn RateLimits>;

/// [`NoLimits`] as services hold it.
pub fn unlimited() -> Limits {
    Arc::new(NoLimits)
}
