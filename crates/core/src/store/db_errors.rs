//! The database's errors as the store returns them, and which of them mean the database is out of
//! reach (an adapter answers those "unavailable, try again", not "internal").

/// A database error, as the store's methods return it.
pub use sqlx::Error as DbError;

/// True when `e` means the database is unreachable for now: no connection from the pool, a
/// dropped connection, or a server shutting down or starting up.
pub fn is_unavailable(e: &DbError) -> bool {
    match e {
        DbError::PoolTimedOut | DbError::Io(_) | DbError::PoolClosed => true,
        DbError::Database(db) => server_going_away(db.code().as_deref()),
        _ => false,
    }
}

/// PostgreSQL's SQLSTATEs for a server that is shutting down, starting up or dropped the
/// connection (classes 57P and 08): a request in flight when it goes is unavailable, as a
/// refused connection is, not a fault.
fn server_going_away(code: Option<&str>) -> bool {
    matches!(code, Some("57P01" | "57P02" | "57P03" | "57P05"))
        || code.is_some_and(|c| c.starts_with("08"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[derive(Debug)]
    struct PgError(&'static str);

    impl std::fmt::Display for PgError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "SQLSTATE {}", self.0)
        }
    }

    impl std::error::Error for PgError {}

    impl sqlx::error::DatabaseError for PgError {
        fn message(&self) -> &str {
            "terminating connection due to administrator command"
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(Cow::Borrowed(self.0))
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    fn unavailable(code: &'static str) -> bool {
        is_unavailable(&DbError::Database(Box::new(PgError(code))))
    }

    #[test]
    fn a_server_shutting_down_or_a_dropped_connection_is_unavailable() {
        for code in ["57P01", "57P02", "57P03", "08006", "08003"] {
            assert!(unavailable(code), "{code}");
        }
        assert!(is_unavailable(&DbError::PoolTimedOut));
    }

    #[test]
    fn other_database_errors_are_not() {
        for code in ["23505", "42P01", "40001"] {
            assert!(!unavailable(code), "{code}");
        }
        assert!(!is_unavailable(&DbError::RowNotFound));
    }
}
