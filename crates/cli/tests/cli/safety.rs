//! What keeps an operator from hurting a live database: migrations only on request, the target
//! named first, a confirmation for every change, a named actor, and no fixtures in production.

use std::time::Duration;

use closewise_core::store::{NewMail, Store};
use closewise_testkit::both;
use uuid::Uuid;

use crate::helpers::{fixture, now, output, stderr, Backend, TestDb, ACTOR};

both!(
    async fn commands_refuse_a_schema_that_is_behind_until_db_migrate_is_run(db: TestDb) from TestDb::empty {
        let commands: &[&[&str]] = &[
            &["users", "list"],
            &["users", "show", "ana@example.com"],
            &["stats"],
            &["mail", "list"],
            &["audit"],
            &["users", "verify", "ana@example.com", "--yes"],
        ];
        for args in commands {
            let out = db.run(args).await;
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            let err = stderr(&out);
            assert!(err.contains("behind") && err.contains("closewise db migrate"), "{args:?}: {err}");
        }
        // Nothing was migrated on the way.
        let store = Store::connect(&db.url, Duration::from_secs(5)).await.unwrap();
        let pending = store.pending_migrations().await.unwrap();
        assert!(!pending.is_empty());

        let out = db.ok(&["db", "migrate"]).await;
        assert!(out.contains(&format!("Applied {} migration(s)", pending.len())), "{out}");
        assert!(store.pending_migrations().await.unwrap().is_empty());
        assert!(db.json(&["users", "list"]).await.as_array().unwrap().is_empty());
        let again = db.ok(&["db", "migrate"]).await;
        assert!(again.contains("nothing to apply"), "{again}");

        // One migration short is behind too, and the refusal names it.
        let last = pending.last().unwrap();
        db.execute(&format!("DELETE FROM _sqlx_migrations WHERE version = {}", last.version)).await;
        let out = db.run(&["users", "list"]).await;
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains(&format!("{} {}", last.version, last.description)), "{}", stderr(&out));
        store.close().await;
    }
);

/// The URL with a password in it, and the target line `closewise` must print for it.
fn with_password(db: &TestDb) -> (String, String) {
    match db.backend {
        Backend::Sqlite => {
            let path = db.url.trim_start_matches("sqlite://").to_owned();
            (db.url.clone(), format!("closewise: target sqlite {path}"))
        }
        Backend::Postgres => {
            // postgres://user[:password]@host[:port]/database
            let (scheme, rest) = db.url.split_once("://").unwrap();
            let (userinfo, place) = rest.split_once('@').unwrap();
            let user = userinfo.split(':').next().unwrap();
            let (host_port, database) = place.split_once('/').unwrap();
            let (host, port) = match host_port.rsplit_once(':') {
                Some((host, port)) => (host, port.parse::<u16>().unwrap()),
                None => (host_port, 5432),
            };
            let database = database.split('?').next().unwrap();
            let url = format!("{scheme}://{user}:s3cret-pw@{host_port}/{database}");
            let line = format!("closewise: target postgres {host}:{port}/{database}");
            (url, line)
        }
    }
}

both!(
    async fn every_command_names_its_target_first_and_never_the_password(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        // PostgreSQL's trust authentication ignores the password; it must still never be shown.
        let (url, line) = with_password(&db);
        let commands: &[&[&str]] = &[
            &["users", "list"],
            &["users", "verify", "bo@example.com", "--yes"],
            &["plans", "set", "ana@example.com", "monthly", "--reason", "refused"],
            &["users", "show", "nobody@example.com"],
            &["db", "migrate"],
        ];
        for args in commands {
            let mut args = args.to_vec();
            args.extend(["--database-url", url.as_str()]);
            let out = db.run(&args).await;
            let err = stderr(&out);
            assert_eq!(err.lines().next(), Some(line.as_str()), "{args:?}:\n{err}");
            let all = format!("{err}{}", String::from_utf8_lossy(&out.stdout));
            assert!(!all.contains("s3cret-pw"), "{args:?} printed the password:\n{all}");
        }
    }
);

both!(
    async fn every_change_refuses_without_a_terminal_unless_yes_is_given(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let mail = Uuid::now_v7();
        store
            .enqueue_mail(&NewMail {
                id: mail,
                to: "ana@example.com".into(),
                kind: "verification",
                subject: "Confirm your Closewise account".into(),
                text_body: "text".into(),
                html_body: "<p>html</p>".into(),
                link: None,
                created_at: now(),
            })
            .await
            .unwrap();
        let (mail, seed) = (mail.to_string(), fixture("seed.json"));
        let no_stripe = "http://127.0.0.1:9";
        let commands: &[&[&str]] = &[
            &["users", "verify", "bo@example.com"],
            &["users", "sign-out", "ana@example.com"],
            &["users", "delete", "bo@example.com"],
            &["plans", "set", "ana@example.com", "monthly", "--reason", "x"],
            &["db", "seed", &seed],
            &["subscriptions", "sync", "cy@example.com", "--stripe-api-base", no_stripe],
            &["subscriptions", "sync", "--all", "--stripe-api-base", no_stripe],
            &["mail", "retry", &mail],
            &["webhooks", "replay", "evt_123", "--stripe-api-base", no_stripe],
        ];
        let trail = store.audit_log(1000).await.unwrap().len();
        for args in commands {
            // A piped "y" is not an operator's answer.
            let out = db.run_with_stdin(args, "y\n").await;
            assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
            let err = stderr(&out);
            assert!(err.contains("not a terminal") && err.contains("--yes"), "{args:?}: {err}");
        }
        assert_eq!(store.audit_log(1000).await.unwrap().len(), trail, "nothing was recorded");
        let bo = store.user_by_email("bo@example.com").await.unwrap().expect("bo is not deleted");
        assert!(bo.email_confirmed_at.is_none(), "bo is not verified");
        let plan = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(plan["plan"]["plan_type"], "free");

        let out = db.ok(&["users", "verify", "bo@example.com", "--yes"]).await;
        assert!(out.contains("now verified"), "{out}");
    }
);

/// `closewise ARGS` on a terminal (util-linux's `script` gives it one), answering `answer`.
async fn on_a_terminal(db: &TestDb, args: &str, answer: &str) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("closewise");
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &format!("{} {args}", bin.display()), "/dev/null"])
        .env("DATABASE_URL", &db.url)
        .env("USER", ACTOR)
        .env_remove("CLOSEWISE_ACTOR")
        .env_remove("APP_ENV");
    output(cmd, answer).await
}

both!(
    async fn on_a_terminal_the_operator_is_asked_and_only_yes_goes_ahead(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let (_, line) = with_password(&db);
        let target = line.trim_start_matches("closewise: target ");
        let no = on_a_terminal(&db, "users verify bo@example.com", "n\n").await;
        let screen = String::from_utf8_lossy(&no.stdout);
        assert_eq!(no.status.code(), Some(1), "{screen}");
        assert!(screen.contains(&format!("Mark bo@example.com as verified? (on {target}) [y/N]")), "{screen}");
        assert!(screen.contains("not confirmed, nothing changed"), "{screen}");
        let bo = store.user_by_email("bo@example.com").await.unwrap().unwrap();
        assert!(bo.email_confirmed_at.is_none());

        let yes = on_a_terminal(&db, "users verify bo@example.com", "y\n").await;
        let screen = String::from_utf8_lossy(&yes.stdout);
        assert_eq!(yes.status.code(), Some(0), "{screen}");
        assert!(screen.contains("bo@example.com is now verified"), "{screen}");
    }
);

both!(
    async fn the_actor_must_be_named_unless_the_database_is_a_local_development_one(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let verify = ["users", "verify", "bo@example.com", "--yes"];
        let out = db.run_env(&verify, &[("APP_ENV", "production")]).await;
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("--actor") && err.contains("CLOSEWISE_ACTOR") && err.contains("APP_ENV=production"), "{err}");
        let bo = store.user_by_email("bo@example.com").await.unwrap().unwrap();
        assert!(bo.email_confirmed_at.is_none(), "refused before any change");
        // Reading needs no name.
        let list = db.run_env(&["users", "list"], &[("APP_ENV", "production")]).await;
        assert!(list.status.success(), "{}", stderr(&list));

        let named = db.run_env(&verify, &[("APP_ENV", "production"), ("CLOSEWISE_ACTOR", "ops-ana")]).await;
        assert!(named.status.success(), "{}", stderr(&named));
        let trail = store.audit_of(Some(bo.id), &bo.email, 10).await.unwrap();
        assert_eq!((trail[0].action.as_str(), trail[0].actor.as_str()), ("user.verify", "ops-ana"));

        // A server on another host: refused before connecting to it.
        let remote = db
            .run(&["users", "sign-out", "ana@example.com", "--yes", "--database-url", "postgres://ops:pw@db.invalid:5432/closewise"])
            .await;
        assert_eq!(remote.status.code(), Some(2), "{}", stderr(&remote));
        assert!(stderr(&remote).contains("db.invalid:5432/closewise is not on this machine"), "{}", stderr(&remote));

        // Locally, with neither a name nor an OS user: refused, never recorded as "unknown".
        let nobody = db.run_env(&["users", "sign-out", "ana@example.com", "--yes"], &[("USER", "")]).await;
        assert_eq!(nobody.status.code(), Some(2), "{}", stderr(&nobody));
        assert!(store.audit_log(1000).await.unwrap().iter().all(|a| a.actor != "unknown" && a.action != "user.sign_out"));
    }
);

both!(
    async fn db_seed_refuses_a_production_database(db: TestDb) from TestDb::new {
        let seed = fixture("seed.json");
        let prod = db
            .run_env(&["db", "seed", &seed, "--yes"], &[("APP_ENV", "production"), ("CLOSEWISE_ACTOR", "ops")])
            .await;
        assert_eq!(prod.status.code(), Some(1), "{}", stderr(&prod));
        assert!(stderr(&prod).contains("refuses a production database (APP_ENV=production)"), "{}", stderr(&prod));
        let flag = db.run(&["db", "seed", &seed, "--yes", "--env", "production"]).await;
        assert_eq!(flag.status.code(), Some(1), "{}", stderr(&flag));
        let remote = db
            .run(&["db", "seed", &seed, "--yes", "--actor", "ops", "--database-url", "postgres://ops@db.invalid/closewise"])
            .await;
        assert_eq!(remote.status.code(), Some(1), "{}", stderr(&remote));
        assert!(stderr(&remote).contains("refuses a production database"), "{}", stderr(&remote));
        assert!(db.json(&["users", "list"]).await.as_array().unwrap().is_empty());
    }
);

both!(
    async fn a_malformed_app_base_url_is_a_usage_error_not_a_crash(db: TestDb) from TestDb::new {
        let bad = db
            .run_env(&["users", "list"], &[("APP_BASE_URL", "localhost:8080")])
            .await;
        assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
        assert!(stderr(&bad).contains("APP_BASE_URL"), "{}", stderr(&bad));
        assert!(!stderr(&bad).contains("panicked"), "{}", stderr(&bad));
    }
);
