//! The API serves the built web app: prerendered pages, the shell for client routes, 404 for the
//! rest, immutable hashed assets, precompressed bodies and security headers.

use reqwest::StatusCode;

use crate::both;

/// A small built site like `web/dist`.
pub fn fake_site() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("closewise-site-{}", uuid::Uuid::now_v7()));
    let write = |path: &str, body: &[u8]| {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    };
    write("index.html", b"<h1>Live AI hints for every sales call</h1>");
    write("pricing/index.html", b"<h1>Pricing</h1>");
    write(
        "features/index.html",
        b"<script>window.__ctx={\"page\":\"features\"}</script><h1>Features</h1>",
    );
    write("__spa-fallback.html", b"<div id=app>shell</div>");
    write("routes.json", br#"{"prerendered":["/","/pricing"],"client":["/dashboard","/success"],"shell":"__spa-fallback.html"}"#);
    write("assets/app-3f9a1c.js", b"console.log('plain')");
    write("assets/app-3f9a1c.js.br", b"BROTLI");
    write("assets/app-3f9a1c.js.gz", b"GZIP");
    write("robots.txt", b"User-agent: *\nAllow: /\n");
    dir
}

both!(
    async fn prerendered_pages_client_routes_and_unknown_paths_answer_as_they_should(app) with |s| { s.web_dist = fake_site(); } {
        let get = |path: &'static str| app.client.get(app.url(path)).send();

        let res = get("/").await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["cache-control"], "no-cache");
        assert!(res.headers()["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));
        assert!(res.text().await.unwrap().contains("Live AI hints"));

        for path in ["/pricing", "/pricing/"] {
            let res = app.client.get(app.url(path)).send().await.unwrap();
            assert_eq!(res.status(), StatusCode::OK, "{path}");
            assert_eq!(res.text().await.unwrap(), "<h1>Pricing</h1>", "{path}");
        }

        let res = get("/dashboard").await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.text().await.unwrap().contains("shell"));

        let res = get("/no-such-page").await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "a real 404 status");
        assert!(res.text().await.unwrap().contains("shell"), "the app renders its not-found page");

        let res = get("/../../etc/passwd").await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);

        let res = get("/robots.txt").await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
    }
);

both!(
    async fn hashed_assets_are_immutable_and_precompressed(app) with |s| { s.web_dist = fake_site(); } {
        let res = app.client.get(app.url("/assets/app-3f9a1c.js")).header("accept-encoding", "br, gzip").send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["cache-control"], "public, max-age=31536000, immutable");
        assert_eq!(res.headers()["content-encoding"], "br");
        let res = app.client.get(app.url("/assets/app-3f9a1c.js")).header("accept-encoding", "gzip").send().await.unwrap();
        assert_eq!(res.headers()["content-encoding"], "gzip");
        let res = app.client.get(app.url("/assets/app-3f9a1c.js")).send().await.unwrap();
        assert!(res.headers().get("content-encoding").is_none());
        assert_eq!(res.text().await.unwrap(), "console.log('plain')");
        let res = app.client.get(app.url("/assets/missing-000000.js")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        assert_eq!(res.headers()["cache-control"], "no-cache", "a 404 is never cached forever");
    }
);

both!(
    async fn every_answer_carries_the_security_headers(app) with |s| { s.web_dist = fake_site(); } {
        let paths = ["/", "/assets/app-3f9a1c.js", "/nope", "/healthz", "/api/products", "/api/nope", "/api/plan"];
        for path in paths {
            let res = app.client.get(app.url(path)).send().await.unwrap();
            let h = res.headers();
            assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
            assert_eq!(h["x-frame-options"], "DENY", "{path}");
            assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin", "{path}");
            assert!(h["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"), "{path}");
            assert_eq!(h["cross-origin-opener-policy"], "same-origin", "{path}");
            assert!(h.get("strict-transport-security").is_none(), "no HSTS on plain-HTTP localhost: {path}");
        }
    }
);

both!(
    async fn https_deployments_send_hsts(app) with |s| { s.base_url = "https://closewise.app".into(); } {
        let res = app.client.get(app.url("/healthz")).send().await.unwrap();
        assert_eq!(res.headers()["strict-transport-security"], "max-age=63072000; includeSubDomains");
    }
);

both!(
    async fn no_page_may_run_inline_scripts_but_its_own_by_hash(app) with |s| { s.web_dist = fake_site(); } {
        use base64::Engine;
        use sha2::Digest;
        let csp_of = |res: &reqwest::Response| res.headers()["content-security-policy"].to_str().unwrap().to_string();
        let features = app.client.get(app.url("/features")).send().await.unwrap();
        let csp = csp_of(&features);
        let script_src = csp.split(';').map(str::trim).find(|d| d.starts_with("script-src")).unwrap().to_string();
        assert!(!script_src.contains("'unsafe-inline'"), "{script_src}");
        let own = base64::engine::general_purpose::STANDARD
            .encode(sha2::Sha256::digest(br#"window.__ctx={"page":"features"}"#));
        assert!(script_src.contains(&format!("'sha256-{own}'")), "{script_src}");
        // Another page does not allow the features page's script.
        for path in ["/", "/pricing", "/dashboard", "/nope", "/api/products"] {
            let res = app.client.get(app.url(path)).send().await.unwrap();
            let csp = csp_of(&res);
            assert!(!csp.contains(&own), "{path}: {csp}");
            let script_src = csp.split(';').map(str::trim).find(|d| d.starts_with("script-src")).unwrap_or("").to_string();
            assert!(!script_src.contains("'unsafe-inline'"), "{path}: {csp}");
        }
    }
);
