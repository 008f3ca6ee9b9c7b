//! Session revocations told to whoever caches what they end (the API's cache of verified access
//! tokens): in this process through observers called right after the revoking commit, and on
//! PostgreSQL to every other process through `NOTIFY session_revoked` sent in the revoking
//! transaction itself, so only a committed revocation is announced. The CLI revokes through the
//! same methods, so an operator's sign-out reaches every replica too.
//!
//! The same announcements carry the writes that change what a user's cached reads return
//! (`Revoked::Reads`, `Revoked::AllReads`: plan, subscription, account, team seat, the meter's
//! calls and grants, the team's policy; the API's read caches): a write announces them with `notify_revoked!` in its
//! transaction and `Store::revoked` after the commit, or `Store::announce` after a single
//! statement.

use std::sync::{Arc, RwLock};

use uuid::Uuid;

use super::{Pool, Store};

/// The PostgreSQL channel revocations are announced on.
pub const CHANNEL: &str = "session_revoked";

/// What a revocation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revoked {
    /// One session (payload `<session id>|<user id>`).
    Session { session_id: Uuid, user_id: Uuid },
    /// Every session of the user (payload `*|<user id>`): password change or reset, sign-out
    /// everywhere, an operator's sign-out, a confirmed e-mail, a deleted account.
    User(Uuid),
    /// No session ended, but what the user's reads return changed (payload `reads|<user id>`):
    /// their plan, subscription, account or team seat, a call started or ended, a grant.
    Reads(Uuid),
    /// What many users' reads return changed (payload `reads|*`): a team's subscription, name,
    /// seats, policy or the team itself, read by each of its members.
    AllReads,
}

impl Revoked {
    pub fn payload(&self) -> String {
        match self {
            Revoked::Session {
                session_id,
                user_id,
            } => format!("{session_id}|{user_id}"),
            Revoked::User(user_id) => format!("*|{user_id}"),
            Revoked::Reads(user_id) => format!("reads|{user_id}"),
            Revoked::AllReads => "reads|*".to_owned(),
        }
    }

    pub fn parse(payload: &str) -> Option<Revoked> {
        let (session, user) = payload.split_once('|')?;
        if session == "reads" {
            if user == "*" {
                return Some(Revoked::AllReads);
            }
            return Uuid::parse_str(user).ok().map(Revoked::Reads);
        }
        let user_id = Uuid::parse_str(user).ok()?;
        if session == "*" {
            return Some(Revoked::User(user_id));
        }
        let session_id = Uuid::parse_str(session).ok()?;
        Some(Revoked::Session {
            session_id,
            user_id,
        })
    }
}

type Observer = Arc<dyn Fn(&Revoked) + Send + Sync>;
type ChannelObserver = Arc<dyn Fn(bool) + Send + Sync>;

/// The in-process observers, shared by every clone of a `Store`: of revocations, and of the
/// channel that brings other processes' (`channel`).
#[derive(Default)]
pub(crate) struct Observers(RwLock<Vec<Observer>>, RwLock<Vec<ChannelObserver>>);

impl std::fmt::Debug for Observers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.read().map(|o| o.len()).unwrap_or(0);
        write!(f, "Observers({n})")
    }
}

/// Inside a `dispatch!` body, in the revoking transaction `$tx`: on PostgreSQL, `NOTIFY` the
/// revocation `$r` (delivered only if the transaction commits); nothing on SQLite.
macro_rules! notify_revoked {
    ($store:expr, $tx:expr, $r:expr) => {
        if let Some(sql) = $store.notify_sql() {
            sqlx::query(sql)
                .bind($crate::store::revocations::CHANNEL)
                .bind($r.payload())
                .execute(&mut *$tx)
                .await?;
        }
    };
}
pub(crate) use notify_revoked;

impl Store {
    /// Calls `observer` with every revocation this process commits, right after the commit and
    /// before the revoking method returns.
    pub fn on_revoked(&self, observer: impl Fn(&Revoked) + Send + Sync + 'static) {
        self.observers
            .0
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::new(observer));
    }

    /// Tells this process's observers; called after the revoking transaction committed, and by
    /// the revocation listener with what another process announced.
    pub fn revoked(&self, revoked: Revoked) {
        let observers = self.observers.0.read().unwrap_or_else(|e| e.into_inner());
        for observer in observers.iter() {
            observer(&revoked);
        }
    }

    /// Calls `observer` with false when announcements from other processes may be missed (the
    /// PostgreSQL channel dropped), true when they are heard again.
    pub fn on_channel(&self, observer: impl Fn(bool) + Send + Sync + 'static) {
        self.observers
            .1
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::new(observer));
    }

    /// Tells the channel observers whether other processes' announcements are heard.
    pub fn channel(&self, listening: bool) {
        let observers = self.observers.1.read().unwrap_or_else(|e| e.into_inner());
        for observer in observers.iter() {
            observer(listening);
        }
    }

    /// Announces `revoked` after a write that committed on its own (no transaction to send it
    /// in): to every process on PostgreSQL, then to this one's observers.
    pub(crate) async fn announce_if(
        &self,
        changed: bool,
        revoked: Revoked,
    ) -> Result<bool, sqlx::Error> {
        if changed {
            self.announce(revoked).await?;
        }
        Ok(changed)
    }

    /// `announce` (the caller's write committed on its own).
    pub(crate) async fn announce(&self, revoked: Revoked) -> Result<(), sqlx::Error> {
        if let Pool::Postgres(p) = &self.pool {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(revoked.payload())
                .execute(p)
                .await?;
        }
        self.revoked(revoked);
        Ok(())
    }

    /// `SELECT pg_notify($1, $2)` on PostgreSQL; SQLite has one process and no channel.
    pub(crate) fn notify_sql(&self) -> Option<&'static str> {
        match self.pool {
            Pool::Postgres(_) => Some("SELECT pg_notify($1, $2)"),
            Pool::Sqlite(_) => None,
        }
    }

    /// The PostgreSQL pool, for a `LISTEN` on `CHANNEL`; `None` on SQLite.
    pub fn postgres_pool(&self) -> Option<&sqlx::PgPool> {
        match &self.pool {
            Pool::Postgres(p) => Some(p),
            Pool::Sqlite(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_round_trip() {
        let (s, u) = (Uuid::new_v4(), Uuid::new_v4());
        for r in [
            Revoked::Session {
                session_id: s,
                user_id: u,
            },
            Revoked::User(u),
            Revoked::Reads(u),
            Revoked::AllReads,
        ] {
            assert_eq!(Revoked::parse(&r.payload()), Some(r));
        }
        assert_eq!(Revoked::parse("nonsense"), None);
        assert_eq!(Revoked::parse("*|not-a-uuid"), None);
        assert_eq!(Revoked::parse("reads|not-a-uuid"), None);
    }
}
