use reqwest::StatusCode;

use crate::both;

both!(
    async fn bad_input_gets_a_clear_4xx_json_error(app) {
        let s = crate::helpers::signed_in_account(&app, "ana@example.com", "sales-pro-2026").await;
        let access = s["access_token"].as_str().unwrap().to_string();
        let big = format!("{{\"email\":\"{}\",\"password\":\"x\"}}", "a".repeat(70 * 1024));
        let cases: Vec<Case> = vec![
            Case::new("malformed JSON", "POST", "/api/auth/signup", Some("application/json"), b"{\"email\":".to_vec(), StatusCode::BAD_REQUEST, "invalid_json"),
            Case::new("wrong type", "POST", "/api/auth/signup", Some("application/json"), br#"{"email":5,"password":"sales-pro-2026"}"#.to_vec(), StatusCode::BAD_REQUEST, "invalid_json"),
            Case::new("missing field", "POST", "/api/auth/signup", Some("application/json"), br#"{"email":"x@example.com"}"#.to_vec(), StatusCode::BAD_REQUEST, "invalid_json"),
            Case::new("not an object", "POST", "/api/auth/verify", Some("application/json"), b"[1,2]".to_vec(), StatusCode::BAD_REQUEST, "invalid_json"),
            Case::new("non-UTF-8", "POST", "/api/auth/signup", Some("application/json"), vec![b'{', b'"', 0xff, 0xfe, b'"', b'}'], StatusCode::BAD_REQUEST, "invalid_json"),
            Case::new("oversized", "POST", "/api/auth/signup", Some("application/json"), big.into_bytes(), StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            Case::new("no content type", "POST", "/api/auth/recover", None, br#"{"email":"x@example.com"}"#.to_vec(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"),
            Case::new("token grant body", "POST", "/api/auth/token?grant_type=password", Some("application/json"), b"nope".to_vec(), StatusCode::BAD_REQUEST, "invalid_json"),
            Case::new("unknown grant", "POST", "/api/auth/token?grant_type=magic", Some("application/json"), b"{}".to_vec(), StatusCode::BAD_REQUEST, "invalid_grant_type"),
            Case::new("bad logout scope", "POST", "/api/auth/logout?scope=everyone", Some("application/json"), b"{}".to_vec(), StatusCode::BAD_REQUEST, "invalid_scope"),
            Case::new("unknown API path", "GET", "/api/nope", None, vec![], StatusCode::NOT_FOUND, "not_found"),
            Case::new("wrong method", "GET", "/api/auth/signup", None, vec![], StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            Case::new("password change, wrong types", "POST", "/api/auth/password", Some("application/json"), br#"{"current_password":1}"#.to_vec(), StatusCode::BAD_REQUEST, "invalid_json"),
        ];
        for Case { case, method, path, content_type, payload, status, code } in cases {
            let mut req = app.client.request(method.parse().unwrap(), app.url(path)).bearer_auth(&access).body(payload);
            if let Some(ct) = content_type {
                req = req.header("content-type", ct);
            }
            let (got, v) = body(req.send().await.unwrap()).await;
            assert_eq!(got, status, "case {case}: {v}");
            assert_eq!(error_code(&v), code, "case {case}: {v}");
            assert!(!error_message(&v).is_empty(), "case {case} has a message");
        }
        assert!(app.state.store.user_by_email("x@example.com").await.unwrap().is_none(), "nothing half-made");
    }
);

struct Case {
    case: &'static str,
    method: &'static str,
    path: &'static str,
    content_type: Option<&'static str>,
    payload: Vec<u8>,
    status: StatusCode,
    code: &'static str,
}

impl Case {
    fn new(
        case: &'static str,
        method: &'static str,
        path: &'static str,
        content_type: Option<&'static str>,
        payload: Vec<u8>,
        status: StatusCode,
        code: &'static str,
    ) -> Self {
        Case {
            case,
            method,
            path,
            content_type,
            payload,
            status,
            code,
        }
    }
}
