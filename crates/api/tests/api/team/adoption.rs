//! Adoption: the usage report's figures are the calls the meter recorded; its CSV;
//! the team's activity a page at a time, filtered, and exported as CSV and JSON lines; who may
//! see them.

use closewise_domain::idle_seats::Month;
use closewise_domain::teams::Role;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::*;
use crate::both;

/// A call of `seconds` by `u`, recorded through the usage service as the app would.
async fn a_call(app: &TestApp, u: &User, id: &str, seconds: i64) {
    let started = app.state.usage.start_call(u.id, None, id).await.unwrap();
    let mut left = seconds;
    while left > 0 {
        // Heartbeats keep it going, as the app's do.
        let step = left.min(20);
        app.advance(time::Duration::seconds(step));
        left -= step;
        if left > 0 {
            app.state
                .usage
                .heartbeat(u.id, None, started.call.id, None)
                .await
                .unwrap();
        }
    }
    let ended = app
        .state
        .usage
        .end_call(u.id, started.call.id)
        .await
        .unwrap();
    assert_eq!(ended.duration_seconds, Some(seconds as i32), "{ended:?}");
}

async fn joined(app: &TestApp, owner: &User, email: &str, role: Role) -> User {
    let u = user(app, email).await;
    let inv = app
        .state
        .teams
        .invite(
            &closewise_core::actor::Actor::member(owner.id, ""),
            email,
            role,
        )
        .await
        .unwrap();
    app.state
        .teams
        .accept(&closewise_core::actor::Actor::member(u.id, ""), &inv.token)
        .await
        .unwrap();
    u
}

async fn get_text(app: &TestApp, path: &str, token: &str) -> (StatusCode, String, String) {
    let res = app
        .client
        .get(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = res.status();
    let ct = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, ct, res.text().await.unwrap())
}

both!(
    async fn usage_figures_are_the_calls_recorded_this_month_and_last(app) {
        let ana = user(&app, "ana@northwind.example").await;
        app.state.teams.create(&closewise_core::actor::Actor::member(ana.id, ""), "Northwind Sales").await.unwrap();
        app.execute("UPDATE teams SET seats = 10").await;
        let bob = joined(&app, &ana, "bob@northwind.example", Role::Member).await;
        let carl_user = joined(&app, &ana, "carl@northwind.example", Role::Member).await;
        let month = Month::of(app.state.clock.now());
        a_call(&app, &bob, "bob-1", 90).await;
        a_call(&app, &bob, "bob-2", 200).await;
        a_call(&app, &ana, "ana-1", 30).await;

        let path = format!("/api/team/adoption?month={month}");
        let (status, v) = call(&app, Method::GET, &path, Some(&ana.token), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["month"], month.to_string());
        assert_eq!(v["previous_month"], month.previous().to_string());
        assert_eq!(v["idle_days"], 30);
        let line = |email: &str| v["members"].as_array().unwrap().iter().find(|m| m["email"] == email).cloned().unwrap();
        // The figures are the meter's: the calls and seconds stored for each member.
        for (u, email) in [(&bob, "bob@northwind.example"), (&ana, "ana@northwind.example")] {
            let calls = app.state.store.recent_calls(u.id, 100).await.unwrap();
            let seconds: i64 = calls.iter().map(|c| i64::from(c.duration_seconds.unwrap())).sum();
            let m = line(email);
            assert_eq!(m["calls_this_month"], calls.len(), "{m}");
            assert_eq!(m["minutes_this_month"].as_i64().unwrap(), (seconds + 59) / 60, "{m}");
            assert_eq!(m["calls_last_month"], 0);
            assert_eq!((&m["idle"], &m["state"]), (&json!(false), &json!("new")), "joined just now");
            assert!(m["last_active_at"].as_str().unwrap() >= m["last_call_at"].as_str().unwrap(), "{m}");
        }
        let bob_line = line("bob@northwind.example");
        assert_eq!((bob_line["calls_this_month"].as_u64(), bob_line["minutes_this_month"].as_u64()), (Some(2), Some(5)));
        assert_eq!((bob_line["role"].as_str(), bob_line["devices"].as_u64(), bob_line["second_factor"].as_bool()), (Some("member"), Some(0), Some(false)));
        let carl = line("carl@northwind.example");
        // Carl joined a minute ago without a call: new, not idle.
        assert_eq!((carl["idle"].as_bool(), carl["state"].as_str(), carl["calls_this_month"].as_u64(), carl["last_call_at"].clone()), (Some(false), Some("new"), Some(0), Value::Null));
        assert_eq!(v["totals"], json!({
            "members": 3, "idle": 0, "new": 3, "calls_this_month": 3, "minutes_this_month": 6,
            "calls_last_month": 0, "minutes_last_month": 0, "devices": 0, "second_factor": 0,
        }));
        // Nobody's seat is idle yet; no subscription, so nothing to reclaim through Stripe either.
        assert_eq!(v["reclaim"]["idle_members"], 0);
        assert_eq!(v["reclaim"]["user_ids"], json!([]), "whichever page shows them");
        let _ = carl_user;
        assert_eq!(v["may_reclaim"], false);
        assert_eq!(v["next_cursor"], Value::Null, "three members: one page");

        // A page at a time, as the members list: the team's totals and the reclaim
        // offer on every page, whoever the page shows.
        let first = usage_page(&app, &ana.token, &format!("month={month}&limit=2")).await;
        let emails = |p: &Value| p["members"].as_array().unwrap().iter().map(|m| m["email"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
        assert_eq!(emails(&first), ["ana@northwind.example", "bob@northwind.example"], "in the order they joined");
        let cursor = first["next_cursor"].as_str().expect("a next page").to_owned();
        let second = usage_page(&app, &ana.token, &format!("month={month}&limit=2&cursor={cursor}")).await;
        assert_eq!(emails(&second), ["carl@northwind.example"]);
        assert_eq!(second["next_cursor"], Value::Null);
        for p in [&first, &second] {
            assert_eq!(p["totals"], v["totals"], "the team's, not the page's");
            assert_eq!(p["reclaim"], v["reclaim"]);
            assert_eq!((&p["month"], &p["seats"]), (&v["month"], &v["seats"]));
        }
        let paged: Vec<Value> = [&first, &second].iter().flat_map(|p| p["members"].as_array().unwrap().clone()).collect();
        assert_eq!(&paged, v["members"].as_array().unwrap());
        for (query, code) in [("limit=0", "invalid_limit"), ("limit=501", "invalid_limit"), ("cursor=nope", "invalid_cursor"), ("cursor=1.zz", "invalid_cursor")] {
            assert_refused(call(&app, Method::GET, &format!("/api/team/adoption?{query}"), Some(&ana.token), None).await, StatusCode::BAD_REQUEST, code, query);
        }

        // The month after: these calls are last month's.
        let (status, next) = call(&app, Method::GET, &format!("/api/team/adoption?month={}", month.next()), Some(&ana.token), None).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        assert_eq!(next["totals"]["calls_this_month"], 0);
        assert_eq!(next["totals"]["calls_last_month"], 3);
        assert_eq!(next["totals"]["minutes_last_month"], 6);

        // The CSV carries the same lines.
        let (status, ct, text) = get_text(&app, &format!("/api/team/adoption.csv?month={month}"), &ana.token).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        assert!(ct.starts_with("text/csv"), "{ct}");
        let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines[0], "email,role,joined_at,last_active_at,last_call_at,idle,calls_this_month,minutes_this_month,calls_last_month,minutes_last_month,devices,second_factor,month");
        assert_eq!(lines.len(), 4, "{text}");
        let bob_row = lines.iter().find(|l| l.starts_with("bob@northwind.example,")).unwrap();
        assert!(bob_row.ends_with(&format!(",false,2,5,0,0,0,false,{month}")), "{bob_row}");
        let carl_row = lines.iter().find(|l| l.starts_with("carl@northwind.example,")).unwrap();
        assert!(carl_row.ends_with(&format!(",false,0,0,0,0,0,false,{month}")), "{carl_row}");

        // Members do not see it; bad months are refused.
        assert_refused(call(&app, Method::GET, "/api/team/adoption", Some(&bob.token), None).await, StatusCode::FORBIDDEN, "forbidden_role", "a member");
        let (status, _, _) = get_text(&app, "/api/team/adoption.csv", &bob.token).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_refused(call(&app, Method::GET, "/api/team/adoption?month=2026-13", Some(&ana.token), None).await, StatusCode::BAD_REQUEST, "invalid_month", "month 13");
        let loner = user(&app, "zed@elsewhere.example").await;
        assert_refused(call(&app, Method::GET, "/api/team/adoption", Some(&loner.token), None).await, StatusCode::NOT_FOUND, "team_not_found", "no team");
    }
);

both!(
    async fn a_member_is_idle_after_thirty_days_in_the_team_without_a_call_and_without_a_sign_in(app) {
        let ana = user(&app, "ana@northwind.example").await;
        app.state.teams.create(&closewise_core::actor::Actor::member(ana.id, ""), "Northwind Sales").await.unwrap();
        app.execute("UPDATE teams SET seats = 10").await;
        let dee = joined(&app, &ana, "dee@northwind.example", Role::Admin).await;
        let bob = joined(&app, &ana, "bob@northwind.example", Role::Member).await;
        a_call(&app, &dee, "dee-1", 60).await;
        let (status, v) = call(&app, Method::GET, "/api/team/adoption", Some(&dee.token), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["month"], Month::of(app.state.clock.now()).to_string());
        let states = |v: &Value| v["members"].as_array().unwrap().iter().map(|m| m["state"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
        assert_eq!(states(&v), ["new", "new", "new"], "{v}");
        assert_eq!((&v["totals"]["idle"], &v["totals"]["new"]), (&json!(0), &json!(3)));

        // A month on, the owner signs in to the console: she is active; the admin who called a
        // month ago and the member who never did are idle.
        app.advance(time::Duration::days(31));
        let signin = |email: &'static str| {
            let app = &app;
            async move {
                let (_, session) = body(app.signin(email, PASSWORD).await).await;
                session["access_token"].as_str().unwrap().to_owned()
            }
        };
        let owner = signin("ana@northwind.example").await;
        let (_, v) = call(&app, Method::GET, "/api/team/adoption", Some(&owner), None).await;
        assert_eq!(states(&v), ["active", "idle", "idle"], "{v}");
        assert_eq!(v["members"][0]["idle"], false, "the owner signed in today");
        assert_eq!(v["members"][1]["idle"], true, "{v}");
        assert_eq!((&v["totals"]["idle"], &v["totals"]["new"]), (&json!(2), &json!(0)));
        assert_eq!(v["reclaim"]["idle_members"], 2);
        assert_eq!(v["reclaim"]["user_ids"], json!([dee.id, bob.id]));
        // A page without the idle members still counts them, and still offers their seats.
        let first = usage_page(&app, &owner, "limit=1").await;
        assert_eq!(first["members"].as_array().unwrap().len(), 1);
        assert_eq!((&first["totals"], &first["reclaim"]), (&v["totals"], &v["reclaim"]));

        // A sign-in without a call is use of the seat: the member is no longer idle.
        signin("bob@northwind.example").await;
        let (_, v) = call(&app, Method::GET, "/api/team/adoption", Some(&owner), None).await;
        assert_eq!(states(&v), ["active", "idle", "active"], "{v}");
        assert_eq!(v["totals"]["idle"], 1);
        assert_eq!(v["reclaim"]["user_ids"], json!([dee.id]));
    }
);

async fn usage_page(app: &TestApp, token: &str, query: &str) -> Value {
    let (status, v) = call(
        app,
        Method::GET,
        &format!("/api/team/adoption?{query}"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{query}: {v}");
    v
}

async fn page(app: &TestApp, token: &str, query: &str) -> Value {
    let (status, v) = call(
        app,
        Method::GET,
        &format!("/api/team/audit?{query}"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

both!(
    async fn the_activity_pages_by_cursor_filters_by_action_and_exports(app) {
        let ana = user(&app, "ana@northwind.example").await;
        let (status, v) = call(&app, Method::POST, "/api/team", Some(&ana.token), Some(json!({"name": "Northwind"}))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        app.execute("UPDATE teams SET seats = 10").await;
        for who in ["a", "b", "c"] {
            let (status, v) = call(&app, Method::POST, "/api/team/invites", Some(&ana.token), Some(json!({"email": format!("{who}@northwind.example"), "role": "member"}))).await;
            assert_eq!(status, StatusCode::ACCEPTED, "{v}");
            app.advance(time::Duration::seconds(1));
        }
        for name in ["Northwind EMEA", "Northwind \"Global\", Inc"] {
            let (status, v) = call(&app, Method::PATCH, "/api/team", Some(&ana.token), Some(json!({"name": name}))).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        // Another team's rows are not this team's.
        let zed = user(&app, "zed@elsewhere.example").await;
        call(&app, Method::POST, "/api/team", Some(&zed.token), Some(json!({"name": "Elsewhere"}))).await;

        // Two at a time, newest first, until the last page.
        let mut all = Vec::new();
        let mut query = "limit=2".to_owned();
        loop {
            let v = page(&app, &ana.token, &query).await;
            let entries = v["entries"].as_array().unwrap();
            assert!(entries.len() <= 2);
            all.extend(entries.iter().cloned());
            match v["next_cursor"].as_str() {
                Some(c) => query = format!("limit=2&cursor={c}"),
                None => break,
            }
        }
        let actions: Vec<&str> = all.iter().map(|e| e["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["team.rename", "team.rename", "team.invite", "team.invite", "team.invite", "team.create"]);
        assert!(all.iter().all(|e| e["actor"] == "ana@northwind.example"));
        assert_eq!(all[5]["details"]["name"], "Northwind");
        assert_eq!(all[2]["target_email"], "c@northwind.example");
        assert_eq!(all[4]["target_email"], "a@northwind.example");
        let whole = page(&app, &ana.token, "").await;
        assert_eq!(whole["entries"].as_array().unwrap(), &all);
        assert_eq!(whole["next_cursor"], Value::Null);

        // Filters.
        let renames = page(&app, &ana.token, "action=team.rename").await;
        assert_eq!(renames["entries"].as_array().unwrap().len(), 2);
        let both_kinds = page(&app, &ana.token, "action=team.invite,team.rename&limit=4").await;
        assert_eq!(both_kinds["entries"].as_array().unwrap().len(), 4);
        let rest = page(&app, &ana.token, &format!("action=team.invite,team.rename&cursor={}", both_kinds["next_cursor"].as_str().unwrap())).await;
        assert_eq!(rest["entries"].as_array().unwrap().len(), 1);
        assert_eq!(rest["entries"][0]["action"], "team.invite");
        assert!(page(&app, &ana.token, "action=team.delete").await["entries"].as_array().unwrap().is_empty());

        for (query, code) in [("limit=0", "invalid_limit"), ("limit=501", "invalid_limit"), ("cursor=nope", "invalid_cursor"), ("action=DROP%20TABLE", "invalid_action")] {
            assert_refused(call(&app, Method::GET, &format!("/api/team/audit?{query}"), Some(&ana.token), None).await, StatusCode::BAD_REQUEST, code, query);
        }

        // CSV: a header, then the rows in the same order; fields with commas and quotes quoted.
        let (status, ct, text) = get_text(&app, "/api/team/audit.csv", &ana.token).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        assert!(ct.starts_with("text/csv"), "{ct}");
        let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines[0], "created_at,actor,action,user_id,target_email,details,id");
        assert_eq!(lines.len(), 7, "{text}");
        assert!(lines[1].contains(",ana@northwind.example,team.rename,"), "{}", lines[1]);
        assert!(lines[1].contains(r#","{""name"":""Northwind \""Global\"", Inc"",""team_id"":"#), "the details' JSON, quoted: {}", lines[1]);
        assert!(lines[1].ends_with(all[0]["id"].as_str().unwrap()));

        // JSON lines: one entry a line, as the API's.
        let (status, ct, text) = get_text(&app, "/api/team/audit.jsonl?action=team.invite", &ana.token).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        assert_eq!(ct, "application/x-ndjson");
        let parsed: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(parsed, all[2..5].to_vec());
        assert!(text.ends_with('\n'));

        // Members see none of it.
        let bob = joined(&app, &ana, "bob@northwind.example", Role::Member).await;
        assert_refused(call(&app, Method::GET, "/api/team/audit", Some(&bob.token), None).await, StatusCode::FORBIDDEN, "forbidden_role", "a member");
        let (status, _, _) = get_text(&app, "/api/team/audit.jsonl", &bob.token).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
);

/// A member's expected line: e-mail, (calls, minutes) this month and the month before.
type Line = (&'static str, (u64, u64), (u64, u64));

/// What the calls table says of `u` in `month`: calls started, and the minutes of those ended.
async fn from_the_calls(app: &TestApp, u: &User, month: Month) -> (u64, u64) {
    let calls = app.state.store.recent_calls(u.id, 1_000).await.unwrap();
    let of_month: Vec<_> = calls
        .iter()
        .filter(|c| month.contains(c.started_at))
        .collect();
    let seconds: i64 = of_month
        .iter()
        .map(|c| i64::from(c.duration_seconds.unwrap_or(0)))
        .sum();
    (of_month.len() as u64, ((seconds + 59) / 60) as u64)
}

both!(
    async fn the_monthly_figures_stay_the_calls_own_through_every_write(app) {
        // The report reads each member's month from `call_months`, which the database
        // keeps with every write to `calls`: a call started, ended, still going, lapsed, started
        // in one month and ended in the next, and the account deleted.
        let now = app.state.clock.now();
        let month_left = Month::of(now).next().start() - now;
        if month_left < time::Duration::hours(3) {
            // The first part must stay inside one month, whenever the test runs.
            app.advance(month_left + time::Duration::hours(1));
        }
        let ana = user(&app, "ana@northwind.example").await;
        app.state.teams.create(&closewise_core::actor::Actor::member(ana.id, ""), "Northwind Sales").await.unwrap();
        app.execute("UPDATE teams SET seats = 10").await;
        let bob = joined(&app, &ana, "bob@northwind.example", Role::Member).await;
        let month = Month::of(app.state.clock.now());
        a_call(&app, &bob, "bob-1", 90).await;
        let open = app.state.usage.start_call(bob.id, None, "bob-open").await.unwrap();
        a_call(&app, &ana, "ana-1", 45).await;
        // Signed in afresh for each report: the clock moves on past an access token's life.
        let report = |m: Month| {
            let app = &app;
            async move {
                let (_, session) = body(app.signin("ana@northwind.example", PASSWORD).await).await;
                let token = session["access_token"].as_str().unwrap().to_owned();
                usage_page(app, &token, &format!("month={m}")).await
            }
        };
        let line_of = |v: &Value, email: &str| -> (u64, u64, u64, u64) {
            let m = v["members"].as_array().unwrap().iter().find(|m| m["email"] == email).cloned().unwrap();
            let n = |k: &str| m[k].as_u64().unwrap();
            (n("calls_this_month"), n("minutes_this_month"), n("calls_last_month"), n("minutes_last_month"))
        };
        let check = |v: Value, m: Month, people: Vec<Line>| {
            let (mut calls, mut minutes, mut calls_before, mut minutes_before) = (0, 0, 0, 0);
            for (email, this, before) in &people {
                assert_eq!(line_of(&v, email), (this.0, this.1, before.0, before.1), "{email} in {m}: {v}");
                calls += this.0;
                minutes += this.1;
                calls_before += before.0;
                minutes_before += before.1;
            }
            let t = &v["totals"];
            assert_eq!((t["calls_this_month"].as_u64(), t["minutes_this_month"].as_u64()), (Some(calls), Some(minutes)), "{m}: {t}");
            assert_eq!((t["calls_last_month"].as_u64(), t["minutes_last_month"].as_u64()), (Some(calls_before), Some(minutes_before)), "{m}: {t}");
        };
        // The open call counts as a call, without minutes until it ends.
        let (b, a) = (from_the_calls(&app, &bob, month).await, from_the_calls(&app, &ana, month).await);
        assert_eq!((b, a), ((2, 2), (1, 1)));
        check(report(month).await, month, vec![("bob@northwind.example", b, (0, 0)), ("ana@northwind.example", a, (0, 0))]);

        // Its heartbeats stop and it lapses: its minutes arrive when it is ended.
        for _ in 0..3 {
            app.advance(time::Duration::seconds(20));
            app.state.usage.heartbeat(bob.id, None, open.call.id, None).await.unwrap();
        }
        app.advance(time::Duration::hours(1));
        assert_eq!(app.state.usage.end_lapsed_calls(bob.id).await.unwrap(), 1);
        let ended = app.state.store.call_of(bob.id, open.call.id).await.unwrap().unwrap();
        assert!(ended.duration_seconds.unwrap_or(0) > 0, "{ended:?}");
        let b = from_the_calls(&app, &bob, month).await;
        assert!(b.1 > 2, "the lapsed call's minutes: {b:?}");

        // A call started in the month's last seconds and ended in the next counts in the month it
        // started.
        let next = month.next();
        let to_end = next.start() - app.state.clock.now();
        if to_end > time::Duration::seconds(10) {
            app.advance(to_end - time::Duration::seconds(10));
        }
        a_call(&app, &ana, "ana-boundary", 40).await;
        assert!(next.contains(app.state.clock.now()));
        let a = from_the_calls(&app, &ana, month).await;
        assert_eq!(a.0, 2);
        check(report(month).await, month, vec![("bob@northwind.example", b, (0, 0)), ("ana@northwind.example", a, (0, 0))]);
        a_call(&app, &ana, "ana-next", 61).await;
        let a_next = from_the_calls(&app, &ana, next).await;
        assert_eq!(a_next, (1, 2));
        check(report(next).await, next, vec![("bob@northwind.example", (0, 0), b), ("ana@northwind.example", a_next, a)]);

        // The table holds no more and no less than the calls: the same count and seconds.
        let sums = |table_sql: &'static str| {
            let url = app.database_url.clone();
            async move { closewise_testkit::scalar(&url, table_sql).await }
        };
        assert_eq!(sums("SELECT CAST(COALESCE(SUM(calls), 0) AS BIGINT) FROM call_months").await, sums("SELECT CAST(COUNT(*) AS BIGINT) FROM calls").await);
        assert_eq!(
            sums("SELECT CAST(COALESCE(SUM(seconds), 0) AS BIGINT) FROM call_months").await,
            sums("SELECT CAST(COALESCE(SUM(duration_seconds), 0) AS BIGINT) FROM calls").await
        );
        // A deleted account takes its months along: ana's two months are what is left.
        app.state.teams.remove_member(&closewise_core::actor::Actor::member(ana.id, ""), None, bob.id).await.unwrap();
        app.state.store.delete_user(bob.id).await.unwrap();
        assert_eq!(sums("SELECT CAST(COUNT(*) AS BIGINT) FROM call_months").await, 2);
        assert_eq!(sums("SELECT CAST(COALESCE(SUM(calls), 0) AS BIGINT) FROM call_months").await, 3);
        check(report(next).await, next, vec![("ana@northwind.example", a_next, a)]);

        // The newest call (`last_call_at`) is the newest of the months; a call deleted leaves its
        // month to the one before it.
        let newest = |v: &Value| v["members"][0]["last_call_at"].as_str().map(str::to_owned);
        let started = |id: &str| {
            let app = &app;
            let (ana_id, id) = (ana.id, id.to_owned());
            async move {
                let calls = app.state.store.recent_calls(ana_id, 10).await.unwrap();
                let c = calls.iter().find(|c| c.client_call_id == id).unwrap();
                c.started_at.format(&time::format_description::well_known::Rfc3339).unwrap()
            }
        };
        assert_eq!(newest(&report(next).await), Some(started("ana-next").await));
        let boundary = started("ana-boundary").await;
        app.execute("DELETE FROM calls WHERE client_call_id = 'ana-next'").await;
        let v = report(next).await;
        assert_eq!(newest(&v), Some(boundary), "{v}");
        check(v, next, vec![("ana@northwind.example", (0, 0), a)]);
        assert_eq!(sums("SELECT CAST(COALESCE(SUM(calls), 0) AS BIGINT) FROM call_months").await, 2);
    }
);
