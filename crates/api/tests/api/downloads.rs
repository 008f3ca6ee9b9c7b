//! `GET /api/downloads` and this server's own `/downloads` when no release address is set.

use reqwest::StatusCode;

use crate::both;
use crate::helpers::TestApp;

async fn downloads(app: &TestApp) -> serde_json::Value {
    let res = app
        .client
        .get(app.url("/api/downloads"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    res.json().await.unwrap()
}

both!(
    async fn without_a_release_address_the_disk_images_are_this_servers_own(app) {
        let v = downloads(&app).await;
        let base = format!("{}/downloads/v1.0.0", app.state.settings.base_url);
        assert_eq!(v["version"], "v1.0.0");
        assert_eq!(v["mac"]["arm64"], format!("{base}/Closewise-1.0.0-arm64.dmg"));
        assert_eq!(v["mac"]["x64"], format!("{base}/Closewise-1.0.0-x64.dmg"));

        // Nothing there: a page that says what to do, not the site's 404.
        let res = app.client.get(app.url("/downloads/v1.0.0/Closewise-1.0.0-arm64.dmg")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        assert!(res.headers()[reqwest::header::CONTENT_TYPE].to_str().unwrap().starts_with("text/html"));
        let page = res.text().await.unwrap();
        assert!(page.contains("No disk image here") && page.contains("DOWNLOAD_BASE_URL"), "{page}");

        // A disk image put under DATA_DIR/downloads is served.
        let dir = app.state.settings.data_dir.join("downloads/v1.0.0");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Closewise-1.0.0-x64.dmg"), b"DMG").unwrap();
        let res = app.client.get(app.url("/downloads/v1.0.0/Closewise-1.0.0-x64.dmg")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.bytes().await.unwrap().as_ref(), b"DMG");

        // Nothing outside that folder: the database sits beside it in DATA_DIR.
        std::fs::write(app.state.settings.data_dir.join("secret.txt"), b"secret").unwrap();
        for path in ["/downloads/../secret.txt", "/downloads/%2e%2e/secret.txt", "/downloads/..%2fsecret.txt"] {
            let res = app.client.get(app.url(path)).send().await.unwrap();
            let status = res.status();
            let text = res.text().await.unwrap();
            assert!(!text.contains("secret"), "{path}: {status} {text}");
        }
    }
);

both!(
    async fn a_release_address_and_version_set_at_run_time_are_what_the_chooser_gets(app) with |s| {
        s.downloads.base_url = Some("https://github.com/closewise/closewise-desktop/releases/download".into());
        s.downloads.version = closewise_domain::downloads::DesktopVersion::parse("v1.2.3").unwrap();
    } {
        let v = downloads(&app).await;
        let base = "https://github.com/closewise/closewise-desktop/releases/download/v1.2.3";
        assert_eq!(v["version"], "v1.2.3");
        assert_eq!(v["mac"]["arm64"], format!("{base}/Closewise-1.2.3-arm64.dmg"));
        assert_eq!(v["mac"]["x64"], format!("{base}/Closewise-1.2.3-x64.dmg"));
        // With a release address, this server hands out no files of its own.
        let res = app.client.get(app.url("/downloads/v1.2.3/Closewise-1.2.3-x64.dmg")).send().await.unwrap();
        assert!(!res.text().await.unwrap().contains("No disk image here"));
    }
);
