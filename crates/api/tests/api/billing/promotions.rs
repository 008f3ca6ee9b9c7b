//! Promotion codes at checkout: the typed code is looked up on Stripe and passed as the session's
//! discount; without one Stripe's page offers the field; a code that cannot be used is refused
//! with its reason before any checkout is made.

use super::*;
use crate::both;

impl Billing {
    /// A coupon and a promotion code `code` for it, made on stripe-mock as an operator would.
    async fn promotion(&self, code: &str, extra: &[(&str, String)]) -> String {
        let post = |path: &str, form: Vec<(&str, String)>| {
            self.app
                .client
                .post(format!("{}{path}", self.mock_url))
                .bearer_auth(DEV_STRIPE_SECRET_KEY)
                .form(&form)
                .send()
        };
        let coupon: Value = post("/v1/coupons", vec![("percent_off", "20".into())])
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let mut form = vec![
            ("promotion[type]", "coupon".to_owned()),
            (
                "promotion[coupon]",
                coupon["id"].as_str().unwrap().to_owned(),
            ),
            ("code", code.to_owned()),
        ];
        form.extend(extra.iter().cloned());
        let promo: Value = post("/v1/promotion_codes", form)
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        promo["id"].as_str().expect("a promotion code").to_owned()
    }

    async fn checkout_with(&self, token: &str, code: Option<&str>) -> (StatusCode, Value) {
        let mut order = checkout_body();
        if let Some(code) = code {
            order["promotion_code"] = json!(code);
        }
        body(self.app.post_auth("/api/checkout", token, order).await).await
    }
}

both!(
    async fn a_typed_promotion_code_becomes_the_sessions_discount(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let promo = b.promotion("LAUNCH20", &[]).await;

        let (status, v) = b.checkout_with(&token, Some(" launch20 ")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let session = b
            .mock
            .object(&Billing::session_id(v["url"].as_str().unwrap()))
            .unwrap();
        assert_eq!(session["discounts"][0]["promotion_code"], promo.as_str());
        assert_eq!(session["allow_promotion_codes"], Value::Null);
        assert_eq!(session["amount_total"], 1600);

        let (status, v) = b.checkout_with(&token, None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let session = b
            .mock
            .object(&Billing::session_id(v["url"].as_str().unwrap()))
            .unwrap();
        assert_eq!(session["allow_promotion_codes"], true);
        assert_eq!(session["discounts"], json!([]));
    }
);

both!(
    async fn a_promotion_code_that_cannot_be_used_is_refused_with_its_reason(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let soon = (stripe_mock::Clock::wall() + 600).to_string();
        b.promotion("SOON", &[("expires_at", soon)]).await;
        let cases = [
            ("NOPE", "This promotion code does not exist."),
            ("not a code!", "This promotion code does not exist."),
        ];
        for (code, message) in cases {
            let (status, v) = b.checkout_with(&token, Some(code)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{code}: {v}");
            assert_eq!(v["error"]["code"], "invalid_promotion_code", "{code}");
            assert_eq!(v["error"]["message"], message, "{code}");
        }
        b.app.advance(time::Duration::minutes(11));
        let (status, v) = b.checkout_with(&token, Some("SOON")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(v["error"]["message"], "This promotion code has expired.");
    }
);
