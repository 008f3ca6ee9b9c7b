//! Who makes a change. Every command of a core service takes one: the service checks what this
//! actor may do with the domain's rules and writes the audit row in the change's transaction, so
//! an adapter (the API, the CLI, the SCIM endpoint, a job) never writes one itself.

use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::audit::NewAudit;

/// The one who acts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A signed-in person acting on their own account or on their team (their role decides).
    Member { user_id: Uuid, email: String },
    /// An operator at the CLI: a name for the audit trail and why (`--actor`, `--reason`). Acts on
    /// any account or team within the rules that hold whoever acts (nobody removes an owner...).
    Operator {
        name: String,
        reason: Option<String>,
    },
    /// A team's directory through SCIM, by the token it presented.
    Directory { team_id: Uuid, token_id: Uuid },
    /// One of the system's own jobs (a webhook from Stripe, the daily domain re-check, the sweep).
    System { job: &'static str },
    /// IT at the owner's setup link: its token was presented. Takes only the actions of the
    /// link's steps (`closewise_domain::setup_links::setup_link_may`).
    SetupLink { team_id: Uuid, link_id: Uuid },
}

impl Actor {
    pub fn member(user_id: Uuid, email: impl Into<String>) -> Self {
        Actor::Member {
            user_id,
            email: email.into(),
        }
    }

    pub fn operator(name: impl Into<String>, reason: Option<String>) -> Self {
        Actor::Operator {
            name: name.into(),
            reason,
        }
    }

    /// The member's user id; None for anyone else.
    pub fn user_id(&self) -> Option<Uuid> {
        match self {
            Actor::Member { user_id, .. } => Some(*user_id),
            _ => None,
        }
    }

    /// The setup link acting; None for anyone else.
    pub fn setup_link_id(&self) -> Option<Uuid> {
        match self {
            Actor::SetupLink { link_id, .. } => Some(*link_id),
            _ => None,
        }
    }

    /// How the audit trail names the actor: a member's address, an operator's name, the SCIM token,
    /// the job.
    pub fn audit_name(&self) -> String {
        match self {
            Actor::Member { email, .. } => email.clone(),
            Actor::Operator { name, .. } => name.clone(),
            Actor::Directory { token_id, .. } => format!("scim token {token_id}"),
            Actor::System { job } => (*job).to_owned(),
            Actor::SetupLink { link_id, .. } => format!("setup link {link_id}"),
        }
    }

    /// Why, when the actor said so (operators do).
    pub fn reason(&self) -> Option<String> {
        match self {
            Actor::Operator { reason, .. } => reason.clone(),
            _ => None,
        }
    }

    /// The audit row of a change this actor makes. `about` is the account the change is about (a
    /// member's own account when None); `details` names the team as `"team_id"` when there is one.
    pub fn audit(
        &self,
        action: &'static str,
        about: Option<Uuid>,
        target_email: Option<String>,
        details: Value,
        now: OffsetDateTime,
    ) -> NewAudit {
        NewAudit {
            actor: self.audit_name(),
            action,
            user_id: about.or(self.user_id()),
            target_email,
            reason: self.reason(),
            details,
            now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_members_row_is_about_themselves_unless_told_otherwise() {
        let me = Uuid::now_v7();
        let other = Uuid::now_v7();
        let now = OffsetDateTime::UNIX_EPOCH;
        let actor = Actor::member(me, "ann@example.com");
        let own = actor.audit("team.rename", None, None, json!({}), now);
        assert_eq!(
            (own.actor.as_str(), own.user_id),
            ("ann@example.com", Some(me))
        );
        let theirs = actor.audit("team.member_remove", Some(other), None, json!({}), now);
        assert_eq!(theirs.user_id, Some(other));
        assert_eq!(theirs.reason, None);
    }

    #[test]
    fn an_operator_gives_a_name_and_a_reason_and_is_about_nobody_by_default() {
        let actor = Actor::operator("ops-alice", Some("ticket 7".into()));
        let row = actor.audit(
            "team.seats",
            None,
            None,
            json!({}),
            OffsetDateTime::UNIX_EPOCH,
        );
        assert_eq!(row.actor, "ops-alice");
        assert_eq!(row.reason.as_deref(), Some("ticket 7"));
        assert_eq!(row.user_id, None);
        let scim = Actor::Directory {
            team_id: Uuid::nil(),
            token_id: Uuid::nil(),
        };
        assert_eq!(scim.audit_name(), format!("scim token {}", Uuid::nil()));
        assert_eq!(Actor::System { job: "stripe" }.audit_name(), "stripe");
        let link = Actor::SetupLink {
            team_id: Uuid::nil(),
            link_id: Uuid::nil(),
        };
        assert_eq!(link.audit_name(), format!("setup link {}", Uuid::nil()));
        assert_eq!(link.user_id(), None);
    }
}
