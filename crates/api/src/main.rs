//! `closewise-api`: serves the API and the built web app. `closewise-api openapi` prints the
//! OpenAPI document instead, `closewise-api catalogue` the product catalogue's snapshot.

use closewise_api::{config::Settings, init_telemetry, openapi, Application};

fn main() -> anyhow::Result<()> {
    // Before the runtime starts its threads (`closewise_api::malloc`).
    closewise_api::malloc::cap_arenas();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve())
}

async fn serve() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("openapi") {
        print!("{}", openapi::json());
        return Ok(());
    }
    if std::env::args().nth(1).as_deref() == Some("catalogue") {
        print!("{}", closewise_api::plans::catalogue_json());
        return Ok(());
    }
    let settings = Settings::from_env()?;
    init_telemetry(&settings);
    let app = Application::build(settings.clone()).await?;
    tracing::info!(
        addr = %app.local_addr(),
        url = %settings.base_url,
        database = %app.state().ops.backend_name(),
        instance = %settings.instance,
        "Closewise is listening"
    );
    if settings.is_development() && settings.smtp_url.is_none() {
        tracing::info!(
            "mail is kept in the outbox: read it at {}/dev/mail",
            settings.base_url
        );
    }
    app.run().await
}
