//! `Store::spend_window_then_delay` on both databases (on PostgreSQL one statement, on SQLite two):
//! the window is spent first; the delay only when the window allowed the request; a delay's
//! refusal gives the window's request back.

use std::time::Duration;

use closewise_core::store::ratelimits::{DelaySpend, Refused, WindowSpend};
use closewise_testkit::services::core_fixture;
use closewise_testkit::{both, Backend};
use time::OffsetDateTime;

both!(
    async fn spends_the_window_then_the_delay(backend: Backend) {
        let core = core_fixture(backend, "rate_windows").await;
        let store = core.store;
        let t0 = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        let at = |s: i64| t0 + time::Duration::seconds(s);
        let window = WindowSpend {
            bucket: "FailedSigninPerAccountIp",
            key: "ana@example.com\n127.0.0.1",
            limit: 3,
            window: Duration::from_secs(3600),
        };
        let delay = DelaySpend {
            bucket: "FailedSigninPerAccount",
            key: "ana@example.com",
            free: 2,
            max_delay: Duration::from_secs(60),
            window: Duration::from_secs(3600),
        };
        let spend = |s: i64| {
            let store = store.clone();
            let (window, delay) = (&window, &delay);
            async move {
                store
                    .spend_window_then_delay(window, delay, at(s))
                    .await
                    .unwrap()
            }
        };
        assert_eq!(spend(0).await, Ok(()), "first: both allow");
        assert_eq!(spend(0).await, Ok(()), "second: the delay starts (1 s)");
        assert_eq!(
            spend(0).await,
            Err(Refused::Delay(1)),
            "waiting out the delay"
        );
        assert_eq!(
            spend(0).await,
            Err(Refused::Delay(1)),
            "still; the window got it back"
        );
        assert_eq!(
            spend(1).await,
            Ok(()),
            "third of the window; the delay doubles (2 s)"
        );
        assert_eq!(
            spend(3).await,
            Err(Refused::Window(3597)),
            "the window is spent: refused before the delay is asked"
        );
        // The account's delay was not spent by the refused request: another address's window (a new
        // pair) is allowed at once, and the account's fourth attempt sets a 4 s delay.
        let other = WindowSpend {
            key: "ana@example.com\n127.0.0.2",
            ..window
        };
        assert_eq!(
            store
                .spend_window_then_delay(&other, &delay, at(3))
                .await
                .unwrap(),
            Ok(())
        );
        assert_eq!(
            store
                .spend_window_then_delay(&other, &delay, at(3))
                .await
                .unwrap(),
            Err(Refused::Delay(4))
        );
    }
);
