//! Stripe's webhook as billing receives it, on both databases: the signature over the raw body
//! is checked before anything is read or recorded, a signed event is recorded once by id, and a
//! signed body that is no event is refused.

use closewise_core::billing::signature::{sign, SignatureError};
use closewise_core::billing::{EventError, EventOutcome, WebhookError, DEV_STRIPE_WEBHOOK_SECRET};
use closewise_testkit::services::core_fixture;
use closewise_testkit::{both, scalar, Backend};

const EVENT: &[u8] =
    br#"{"id":"evt_webhook_1","type":"customer.created","data":{"object":{"id":"cus_1"}}}"#;

both!(
    async fn only_signed_events_are_received(backend: Backend) {
        let core = core_fixture(backend, "webhooks").await;
        let now = core.clock.now().unix_timestamp();
        let recorded = || scalar(&core.url, "SELECT COUNT(*) FROM webhook_events");
        let signed = |secret: &str, at: i64, body: &[u8]| sign(secret, at, body);

        let refusals = [
            (None, SignatureError::Malformed),
            (Some("v1=abc".to_owned()), SignatureError::Malformed),
            (
                Some(signed("whsec_other", now, EVENT)),
                SignatureError::Mismatch,
            ),
            (
                Some(signed(DEV_STRIPE_WEBHOOK_SECRET, now - 301, EVENT)),
                SignatureError::Stale,
            ),
            (
                Some(signed(DEV_STRIPE_WEBHOOK_SECRET, now, b"{}")),
                SignatureError::Mismatch,
            ),
        ];
        for (header, expected) in refusals {
            match core.billing.receive_webhook(header.as_deref(), EVENT).await {
                Err(WebhookError::Signature(e)) => assert_eq!(e, expected, "{header:?}"),
                other => panic!("{header:?}: {other:?}"),
            }
        }
        assert_eq!(recorded().await, 0, "nothing recorded for a bad signature");

        let not_an_event = b"[1, 2]";
        let header = signed(DEV_STRIPE_WEBHOOK_SECRET, now, not_an_event);
        let refused = core
            .billing
            .receive_webhook(Some(&header), not_an_event)
            .await;
        assert!(
            matches!(refused, Err(WebhookError::Event(EventError::Invalid))),
            "{refused:?}"
        );

        let header = signed(DEV_STRIPE_WEBHOOK_SECRET, now, EVENT);
        let first = core.billing.receive_webhook(Some(&header), EVENT).await;
        assert!(matches!(first, Ok(EventOutcome::Processed(_))), "{first:?}");
        let again = core.billing.receive_webhook(Some(&header), EVENT).await;
        assert!(
            matches!(again, Ok(EventOutcome::AlreadyProcessed)),
            "{again:?}"
        );
        assert_eq!(recorded().await, 1);
    }
);
