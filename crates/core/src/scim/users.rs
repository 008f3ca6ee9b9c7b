//! The Users endpoint's operations (RFC 7644 §3): create, read, list with a filter and paging,
//! replace, PATCH and delete, each within the caller's team only (another team's user is not
//! found).

use closewise_domain::scim::{
    active, apply_patch, get, parse_filter, user_attributes, user_name, FilterAttribute,
};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::membership::Standing;
use super::{Scim, ScimCaller, ScimError, ScimPage, ScimUser};
use crate::store::teams::scim::{ScimUserFilter, ScimUserRow};

/// The most users one page answers (`ServiceProviderConfig`'s `filter.maxResults`).
pub const MAX_RESULTS: u32 = 200;

impl ScimUser {
    fn standing(&self) -> Standing {
        Standing {
            email: self.user_name.clone(),
            active: self.active,
        }
    }
}

fn external_id(attrs: &Map<String, Value>) -> Option<String> {
    get(attrs, "externalId")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

impl Scim {
    /// Creates the user: an active one takes a seat (`409` with the seats message when none is
    /// free); a user name the team has already is `uniqueness`.
    pub async fn create_user(
        &self,
        caller: &ScimCaller,
        body: Value,
    ) -> Result<ScimUser, ScimError> {
        let attrs = user_attributes(body)?;
        let email = self.team_address(caller, user_name(&attrs)?).await?;
        let (existing, _) = self
            .store
            .scim_users(
                caller.team_id,
                ScimUserFilter::UserName(email.as_str()),
                0,
                1,
            )
            .await?;
        if !existing.is_empty() {
            return Err(ScimError::Uniqueness(format!(
                "A user with userName {} exists already.",
                email.as_str()
            )));
        }
        let now = self.clock.now();
        let row = ScimUserRow {
            id: Uuid::now_v7(),
            team_id: caller.team_id,
            user_name: email.as_str().to_owned(),
            external_id: external_id(&attrs),
            active: active(&attrs),
            resource: Value::Object(attrs).to_string(),
            created_at: now,
            updated_at: now,
        };
        let user = ScimUser::from(row.clone());
        self.transition(caller, None, Some(&user.standing()))
            .await?;
        if !self.store.insert_scim_user(&row).await? {
            return Err(ScimError::Uniqueness(format!(
                "A user with userName {} exists already.",
                email.as_str()
            )));
        }
        Ok(user)
    }

    pub async fn user(&self, caller: &ScimCaller, id: &str) -> Result<ScimUser, ScimError> {
        let id = Uuid::parse_str(id).map_err(|_| ScimError::NotFound)?;
        let (mut rows, _) = self
            .store
            .scim_users(caller.team_id, ScimUserFilter::Id(id), 0, 1)
            .await?;
        rows.pop().map(ScimUser::from).ok_or(ScimError::NotFound)
    }

    /// A page of the team's users, by creation: `start_index` is 1-based (below 1 reads as 1),
    /// `count` at most [`MAX_RESULTS`] (default that many; 0 answers only the total).
    pub async fn users(
        &self,
        caller: &ScimCaller,
        filter: Option<&str>,
        start_index: Option<i64>,
        count: Option<i64>,
    ) -> Result<ScimPage, ScimError> {
        let parsed = match filter.map(str::trim).filter(|f| !f.is_empty()) {
            Some(f) => Some(parse_filter(f)?),
            None => None,
        };
        let lowered = parsed.as_ref().map(|f| f.value.trim().to_lowercase());
        let filter = match (&parsed, &lowered) {
            (Some(f), Some(lower)) => match f.attribute {
                FilterAttribute::UserName => ScimUserFilter::UserName(lower),
                FilterAttribute::ExternalId => ScimUserFilter::ExternalId(&f.value),
                FilterAttribute::Id => match Uuid::parse_str(&f.value) {
                    Ok(id) => ScimUserFilter::Id(id),
                    Err(_) => ScimUserFilter::UserName(""),
                },
            },
            _ => ScimUserFilter::All,
        };
        let start = start_index.unwrap_or(1).max(1);
        let count = count
            .unwrap_or(i64::from(MAX_RESULTS))
            .clamp(0, i64::from(MAX_RESULTS));
        let (rows, total) = self
            .store
            .scim_users(caller.team_id, filter, start - 1, count)
            .await?;
        Ok(ScimPage {
            total,
            start_index: u32::try_from(start).unwrap_or(u32::MAX),
            users: rows.into_iter().map(ScimUser::from).collect(),
        })
    }

    /// Replaces the user's attributes (PUT).
    pub async fn replace_user(
        &self,
        caller: &ScimCaller,
        id: &str,
        body: Value,
    ) -> Result<ScimUser, ScimError> {
        let old = self.user(caller, id).await?;
        let attrs = user_attributes(body)?;
        self.store_change(caller, old, attrs).await
    }

    /// Applies PATCH operations (`replace active false`, attribute updates, with or without a
    /// path).
    pub async fn patch_user(
        &self,
        caller: &ScimCaller,
        id: &str,
        body: Value,
    ) -> Result<ScimUser, ScimError> {
        let old = self.user(caller, id).await?;
        let mut attrs = old.attributes.clone();
        apply_patch(&mut attrs, &body)?;
        let attrs = user_attributes(Value::Object(attrs))?;
        self.store_change(caller, old, attrs).await
    }

    async fn store_change(
        &self,
        caller: &ScimCaller,
        old: ScimUser,
        attrs: Map<String, Value>,
    ) -> Result<ScimUser, ScimError> {
        let email = self.team_address(caller, user_name(&attrs)?).await?;
        // `active` is a column read from the attributes: unassigned (never sent, or removed by
        // a PATCH) counts as active, as at create; only `false` deactivates.
        let is_active = active(&attrs);
        let row = ScimUserRow {
            id: old.id,
            team_id: caller.team_id,
            user_name: email.as_str().to_owned(),
            external_id: external_id(&attrs),
            active: is_active,
            resource: Value::Object(attrs).to_string(),
            created_at: old.created_at,
            updated_at: self.clock.now(),
        };
        let new = ScimUser::from(row.clone());
        if new.user_name != old.user_name {
            let (taken, _) = self
                .store
                .scim_users(
                    caller.team_id,
                    ScimUserFilter::UserName(&new.user_name),
                    0,
                    1,
                )
                .await?;
            if !taken.is_empty() {
                return Err(ScimError::Uniqueness(format!(
                    "A user with userName {} exists already.",
                    new.user_name
                )));
            }
        }
        self.transition(caller, Some(&old.standing()), Some(&new.standing()))
            .await?;
        match self.store.update_scim_user(&row).await? {
            Some(true) => Ok(new),
            Some(false) => Err(ScimError::Uniqueness(format!(
                "A user with userName {} exists already.",
                new.user_name
            ))),
            None => Err(ScimError::NotFound),
        }
    }

    /// Deletes the user: their seat frees and their sessions end.
    pub async fn delete_user(&self, caller: &ScimCaller, id: &str) -> Result<(), ScimError> {
        let old = self.user(caller, id).await?;
        self.transition(caller, Some(&old.standing()), None).await?;
        if !self.store.delete_scim_user(caller.team_id, old.id).await? {
            return Err(ScimError::NotFound);
        }
        Ok(())
    }
}
