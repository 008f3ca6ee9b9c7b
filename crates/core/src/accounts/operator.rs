//! What operators do to an account (`closewise users ...`, `closewise plans ...`): find it,
//! explain it, verify it, sign it out, delete it, set its plan by hand. Every change takes the
//! operator as its [`Actor`] and writes the audit row in the change's transaction.

use closewise_domain::signup::Confirmation;
use serde_json::{json, Value};
use uuid::Uuid;

use super::{confirm_by_operator, AccountError, Accounts, Deletion};
use crate::actor::Actor;
use crate::store::admin::{AdminUserRow, UserFilter};
use crate::store::audit::AuditRow;
use crate::store::mail::MailFilter;
use crate::store::{MailRow, PlanRow, SessionRow, SubscriptionRow, UserRow, WebhookEventRow};

/// An account's plan and the subscription behind it, as stored.
#[derive(Debug, Clone)]
pub struct PlanView {
    pub plan: Option<PlanRow>,
    pub subscription: Option<SubscriptionRow>,
}

/// Everything `closewise users show` explains about one account.
#[derive(Debug, Clone)]
pub struct Explained {
    pub plan: PlanView,
    pub sessions: Vec<SessionRow>,
    pub mails: Vec<MailRow>,
    pub audit: Vec<AuditRow>,
    pub webhook_events: Vec<WebhookEventRow>,
}

impl Accounts {
    /// Accounts newest first.
    pub async fn list(
        &self,
        filter: UserFilter,
        limit: i64,
    ) -> Result<Vec<AdminUserRow>, AccountError> {
        Ok(self.store.admin_users(filter, limit).await?)
    }

    /// The account with this address (already parsed and lower-cased).
    pub async fn find(&self, email: &str) -> Result<Option<UserRow>, AccountError> {
        Ok(self.store.user_by_email(email).await?)
    }

    /// Every account, newest first.
    pub async fn all(&self) -> Result<Vec<UserRow>, AccountError> {
        let all = self
            .store
            .admin_users(UserFilter::default(), i64::MAX)
            .await?;
        let mut users = Vec::with_capacity(all.len());
        for u in all {
            if let Some(row) = self.store.user_by_id(u.id).await? {
                users.push(row);
            }
        }
        Ok(users)
    }

    pub async fn find_by_id(&self, id: Uuid) -> Result<Option<UserRow>, AccountError> {
        Ok(self.store.user_by_id(id).await?)
    }

    pub async fn plan_view(&self, user_id: Uuid) -> Result<PlanView, AccountError> {
        Ok(PlanView {
            plan: self.store.plan_of(user_id).await?,
            subscription: self.store.subscription_of(user_id).await?,
        })
    }

    /// The plan, the sessions, the last 5 mails, the last 20 audit rows and 10 webhook events.
    pub async fn explain(&self, user: &UserRow) -> Result<Explained, AccountError> {
        Ok(Explained {
            plan: self.plan_view(user.id).await?,
            sessions: self.store.sessions_of(user.id).await?,
            mails: (self.store)
                .list_mail(Some(&user.email), MailFilter::All, 5)
                .await?,
            audit: self.store.audit_of(Some(user.id), &user.email, 20).await?,
            webhook_events: self.store.webhook_events_for_user(user.id, 10).await?,
        })
    }

    fn audit_by(
        &self,
        actor: &Actor,
        action: &'static str,
        user: &UserRow,
        details: Value,
    ) -> crate::store::audit::NewAudit {
        let email = Some(user.email.clone());
        actor.audit(action, Some(user.id), email, details, self.clock.now())
    }

    /// Confirms the address as the verification link would; `None` when it already was.
    pub async fn verify_by_operator(
        &self,
        actor: &Actor,
        user: &UserRow,
    ) -> Result<Option<Confirmation>, AccountError> {
        let audit = self.audit_by(actor, "user.verify", user, json!({"verified": true}));
        confirm_by_operator(&self.store, &self.hasher, user.id, &audit).await
    }

    /// Ends every active session; how many there were.
    pub async fn sign_out_by_operator(
        &self,
        actor: &Actor,
        user: &UserRow,
    ) -> Result<u64, AccountError> {
        let sessions = self.store.sessions_of(user.id).await?;
        let active = sessions.iter().filter(|s| s.revoked_at.is_none()).count();
        let details = json!({ "active_sessions": active });
        let audit = self.audit_by(actor, "user.sign_out", user, details);
        Ok(self.store.sign_out_user(user.id, &audit).await?)
    }

    /// Deletes the account; its live subscription is cancelled at Stripe first, and the account
    /// kept when that fails.
    pub async fn delete_by_operator(
        &self,
        actor: &Actor,
        user: &UserRow,
    ) -> Result<Deletion, AccountError> {
        let created_at = user
            .created_at
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        let details = json!({ "created_at": created_at });
        let audit = self.audit_by(actor, "user.delete", user, details);
        self.deletion.delete(user.id, Some(audit)).await
    }

    /// Sets the plan by hand; the plan it had.
    pub async fn set_plan_by_operator(
        &self,
        actor: &Actor,
        user: &UserRow,
        plan: &'static str,
    ) -> Result<Option<String>, AccountError> {
        let before = self
            .store
            .plan_of(user.id)
            .await?
            .map(|p| p.plan_type.as_str());
        let details = json!({ "before": before, "after": plan });
        let audit = self.audit_by(actor, "plan.set", user, details);
        let now = audit.now;
        Ok(self
            .store
            .set_plan(user.id, plan, now, Some(&audit))
            .await?)
    }
}
