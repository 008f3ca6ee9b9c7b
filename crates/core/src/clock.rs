//! The API's notion of "now". Production reads the system clock; tests move a manual clock so that
//! token lifetimes and resend windows can be checked without sleeping.

use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

#[derive(Clone)]
pub enum Clock {
    System,
    Manual(Arc<Mutex<OffsetDateTime>>),
}

impl Clock {
    pub fn manual(start: OffsetDateTime) -> Self {
        Clock::Manual(Arc::new(Mutex::new(start)))
    }

    pub fn now(&self) -> OffsetDateTime {
        match self {
            // Whole microseconds: both databases keep that precision, so a value read back
            // compares equal to the one written.
            Clock::System => truncate_to_micros(OffsetDateTime::now_utc()),
            Clock::Manual(t) => *t.lock().expect("clock lock"),
        }
    }

    /// Moves a manual clock forward; a no-op for the system clock.
    pub fn advance(&self, by: Duration) {
        if let Clock::Manual(t) = self {
            let mut t = t.lock().expect("clock lock");
            *t += by;
        }
    }
}

fn truncate_to_micros(t: OffsetDateTime) -> OffsetDateTime {
    let micros = t.microsecond();
    t.replace_microsecond(micros).unwrap_or(t)
}
