//! Which database a URL points at, and whether its schema is current: what an operator's tool
//! must know before it reads or changes anything.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use anyhow::Context;
use sqlx::postgres::PgConnectOptions;
use sqlx::sqlite::SqliteConnectOptions;

use super::{Pool, Store, POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};

/// Where a database URL leads, without its password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Sqlite {
        path: String,
    },
    Postgres {
        /// The host, or the folder of the Unix socket.
        host: String,
        port: u16,
        database: String,
    },
}

impl Target {
    /// Reads the URL the way `Store::connect` does (PostgreSQL's `PGHOST`, `PGPORT`,
    /// `PGDATABASE` and socket defaults included), without connecting.
    pub fn of(url: &str) -> anyhow::Result<Target> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let o = PgConnectOptions::from_str(url)
                .context("DATABASE_URL is not a valid PostgreSQL URL")?;
            let host = match o.get_socket() {
                Some(socket) => socket.display().to_string(),
                None => o.get_host().to_owned(),
            };
            Ok(Target::Postgres {
                host,
                port: o.get_port(),
                database: o.get_database().unwrap_or(o.get_username()).to_owned(),
            })
        } else if url.starts_with("sqlite:") {
            let o = SqliteConnectOptions::from_str(url)
                .context("DATABASE_URL is not a valid SQLite URL")?;
            Ok(Target::Sqlite {
                path: o.get_filename().display().to_string(),
            })
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite:// or postgres://")
        }
    }

    /// A file on this machine, or PostgreSQL on the loopback interface or a Unix socket.
    pub fn is_local(&self) -> bool {
        match self {
            Target::Sqlite { .. } => true,
            Target::Postgres { host, .. } => {
                host.starts_with('/')
                    || matches!(host.as_str(), "localhost" | "127.0.0.1" | "::1" | "[::1]")
            }
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Sqlite { path } => write!(f, "sqlite {path}"),
            Target::Postgres {
                host,
                port,
                database,
            } => write!(f, "postgres {host}:{port}/{database}"),
        }
    }
}

/// A migration this build has that the database has not applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingMigration {
    pub version: i64,
    pub description: String,
}

impl Store {
    /// The migrations `migrate` would apply, oldest first; empty when the schema is current. A
    /// database without sqlx's `_sqlx_migrations` table has applied none; a migration recorded as
    /// failed counts as pending.
    pub async fn pending_migrations(&self) -> anyhow::Result<Vec<PendingMigration>> {
        let (migrator, applied) = match &self.pool {
            Pool::Sqlite(p) => {
                let exists: bool = sqlx::query_scalar(
                    "SELECT EXISTS (SELECT 1 FROM sqlite_master \
                     WHERE type = 'table' AND name = '_sqlx_migrations')",
                )
                .fetch_one(p)
                .await?;
                let applied: Vec<i64> = if exists {
                    sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
                        .fetch_all(p)
                        .await?
                } else {
                    Vec::new()
                };
                (&SQLITE_MIGRATIONS, applied)
            }
            Pool::Postgres(p) => {
                let exists: bool =
                    sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations') IS NOT NULL")
                        .fetch_one(p)
                        .await?;
                let applied: Vec<i64> = if exists {
                    sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
                        .fetch_all(p)
                        .await?
                } else {
                    Vec::new()
                };
                (&POSTGRES_MIGRATIONS, applied)
            }
        };
        let applied: HashSet<i64> = applied.into_iter().collect();
        Ok(migrator
            .iter()
            .filter(|m| !m.migration_type.is_down_migration() && !applied.contains(&m.version))
            .map(|m| PendingMigration {
                version: m.version,
                description: m.description.to_string(),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_target_names_host_port_and_database_but_never_the_password() {
        let t =
            Target::of("postgres://ops:s3cret@db.internal:6543/closewise?sslmode=require").unwrap();
        assert_eq!(t.to_string(), "postgres db.internal:6543/closewise");
        assert!(!t.is_local());
    }

    #[test]
    fn loopback_hosts_unix_sockets_and_sqlite_files_are_local() {
        for url in [
            "postgres://postgres@127.0.0.1:5432/closewise",
            "postgres://postgres@localhost/closewise",
            "postgres://postgres@[::1]/closewise",
            "postgres:///closewise?host=/var/run/postgresql",
            "sqlite://data/closewise.db",
        ] {
            assert!(Target::of(url).unwrap().is_local(), "{url}");
        }
        assert_eq!(
            Target::of("sqlite://data/closewise.db")
                .unwrap()
                .to_string(),
            "sqlite data/closewise.db"
        );
    }
}
