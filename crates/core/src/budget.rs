//! The budget of password (and second-factor code) checks, kept by the adapter: shared by sign-in
//! (the sessions service) and the signed-in account's flows (the accounts service).

use std::future::Future;

/// The budget of password checks that sign-in spends too, kept by the adapter (the API's rate
/// limiter): one is spent before each check of an account, so racing guesses cannot overrun it,
/// and refunded when the password was right. A refusal is the adapter's and passes through as is.
pub trait PasswordBudget: Sync {
    type Spent: Send;
    type Refusal: Send;
    /// Spends one check of `account` (its e-mail).
    fn spend(
        &self,
        account: &str,
    ) -> impl Future<Output = Result<Self::Spent, Self::Refusal>> + Send;
    fn refund(&self, spent: Self::Spent) -> impl Future<Output = ()> + Send;
}
