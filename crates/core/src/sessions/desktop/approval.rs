//! The signed-in person's decision on a sign-in of the desktop app: allowing the browser sign-in
//! (`/authorize`) or approving a device request (`/activate`). Allowing starts a session on
//! another computer, so it asks what a sensitive action asks: a session SSO started when the
//! address must sign in by SSO, a recent step-up (`crate::reauth`), and the second factor a team
//! of theirs requires (`closewise_domain::mfa::may_approve_devices`).

use closewise_domain::mfa::may_approve_devices;
use closewise_domain::oauth::AuthorizationRequest;

use super::{CodeBudget, DesktopAuth, DesktopAuthError, Spent};
use crate::sessions::auth_cache::AuthUser;

fn encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

impl DesktopAuth {
    /// `by`'s decision on the browser sign-in `req`: where to send the browser, the app's
    /// loopback address with a new code (allowed) or `error=access_denied` (denied), with `state`.
    pub async fn authorize(
        &self,
        by: &AuthUser,
        req: &AuthorizationRequest,
        allow: bool,
    ) -> Result<String, DesktopAuthError> {
        let user = self.store.user_by_id(by.user_id).await?;
        if user.is_none_or(|u| u.email_confirmed_at.is_none()) {
            return Err(DesktopAuthError::VerificationRequired);
        }
        let state = encode(&req.state);
        if !allow {
            return Ok(format!(
                "{}?error=access_denied&state={state}",
                req.redirect_uri
            ));
        }
        let sso = self.may_approve(by).await?;
        let code = self.issue_code(by.user_id, req, sso).await?;
        Ok(format!("{}?code={code}&state={state}", req.redirect_uri))
    }

    /// `by` approves or denies the device request whose code they typed. The approver's checks
    /// come before the budget: the page asks for the password and retries without spending it.
    pub async fn decide_by<B: CodeBudget>(
        &self,
        by: &AuthUser,
        typed: &str,
        approve: bool,
        budget: &B,
    ) -> Spent<(), B::Refusal> {
        let sso = if approve {
            self.may_approve(by).await?
        } else {
            false
        };
        self.decide(by.user_id, typed, approve, sso, budget).await
    }

    /// Whether `by` may let another computer sign in now; whether SSO started their session (the
    /// session it starts is stamped the same).
    async fn may_approve(&self, by: &AuthUser) -> Result<bool, DesktopAuthError> {
        let user = (self.store.user_by_id(by.user_id).await?)
            .ok_or(DesktopAuthError::VerificationRequired)?;
        let sso = (self.store.session_started_by_sso(by.session_id).await?).unwrap_or(false);
        if !sso && self.store.sso_required_for(&user.email).await? {
            return Err(DesktopAuthError::SsoRequired);
        }
        if !self.reauth.is_recent(by.session_id).await? {
            return Err(DesktopAuthError::ReauthenticationRequired);
        }
        let required = self.store.team_requires_mfa(by.user_id).await?;
        let has = self.store.mfa_factors(by.user_id).await?.any();
        if !may_approve_devices(required, has) {
            return Err(DesktopAuthError::MfaSetupRequired);
        }
        Ok(sso)
    }
}
