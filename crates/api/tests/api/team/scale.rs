//! The bench's team fixture (`closewise db seed-team`, `Store::seed_team_fixture`) in
//! its small variant, and the team endpoints `just bench` measures answering correctly on it:
//! the team, the members and invites a page at a time, usage, activity pages, the seat
//! preview's refusal without a subscription and a member's entitlements. The fixture cannot rot
//! without this failing.

use std::collections::HashSet;

use closewise_core::password::Hasher;
use closewise_core::store::fixture::TeamFixture;
use reqwest::{Method, StatusCode};
use serde_json::Value;

use super::*;
use crate::both;

const MEMBERS: u32 = 10;
const CALLS: u32 = 1_000;
const AUDIT: u32 = 100;
const INVITES: u32 = 2;

async fn signed_in(app: &TestApp, email: &str) -> String {
    let (status, v) = body(app.signin(email, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{email}: {v}");
    v["access_token"].as_str().unwrap().to_owned()
}

async fn get(app: &TestApp, path: &str, token: &str) -> Value {
    let (status, v) = call(app, Method::GET, path, Some(token), None).await;
    assert_eq!(status, StatusCode::OK, "{path}: {v}");
    v
}

/// Every row of a paginated list, following `next_cursor` with `limit` rows a page; the number
/// of pages too.
async fn all_pages(
    app: &TestApp,
    path: &str,
    key: &str,
    limit: u32,
    token: &str,
) -> (Vec<Value>, usize) {
    let (mut rows, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let sep = if path.contains('?') { '&' } else { '?' };
        let url = match &cursor {
            Some(c) => format!("{path}{sep}limit={limit}&cursor={c}"),
            None => format!("{path}{sep}limit={limit}"),
        };
        let v = get(app, &url, token).await;
        let page = v[key].as_array().unwrap().clone();
        assert!(page.len() <= limit as usize, "{url}: {v}");
        pages += 1;
        rows.extend(page);
        match v["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return (rows, pages),
        }
        assert!(pages < 1_000, "{path} never ends");
    }
}

both!(
    async fn the_small_bench_team_answers_every_team_endpoint_with_its_pages(app) {
        let fixture = TeamFixture {
            prefix: "t10".into(),
            domain: "bench.example.com".into(),
            members: MEMBERS,
            calls: CALLS,
            audit: AUDIT,
            invites: INVITES,
            password_hash: Hasher::new().hash(PASSWORD).await.unwrap(),
            now: app.state.clock.now(),
        };
        let seeded = app.state.store.seed_team_fixture(&fixture).await.unwrap();
        let owner = signed_in(&app, &seeded.owner_email).await;
        let member_email = fixture.member_email(2);
        let member = signed_in(&app, &member_email).await;

        // A team within one page: every member and invite, the lists whole (no next cursor).
        let team = get(&app, "/api/team", &owner).await["team"].clone();
        assert_eq!(team["id"], seeded.team_id.to_string());
        assert_eq!(team["members"].as_array().unwrap().len(), MEMBERS as usize, "{team}");
        assert_eq!(team["invites"].as_array().unwrap().len(), INVITES as usize, "{team}");
        assert_eq!(
            (&team["members_count"], &team["members_next"]),
            (&Value::from(MEMBERS), &Value::Null),
            "{team}"
        );
        assert_eq!(
            (&team["invites_count"], &team["invites_next"]),
            (&Value::from(INVITES), &Value::Null),
            "{team}"
        );
        assert_eq!(team["seats"]["used"], MEMBERS + INVITES);
        assert_eq!(team["members"][0]["email"], seeded.owner_email);
        assert_eq!(team["members"][1]["role"], "admin");

        // The members a page at a time: the same rows in the same order, each once.
        let (members, pages) = all_pages(&app, "/api/team/members", "members", 3, &owner).await;
        assert_eq!(pages, 4, "10 members in pages of 3");
        assert_eq!(&members, team["members"].as_array().unwrap());
        let ids: HashSet<_> = members.iter().map(|m| m["user_id"].clone()).collect();
        assert_eq!(ids.len(), MEMBERS as usize);
        assert_eq!(members[0]["may_remove"], false, "nobody removes the owner");
        assert_eq!(members[2]["may_remove"], true);
        let (as_member, _) = all_pages(&app, "/api/team/members", "members", 500, &member).await;
        assert_eq!(as_member.len(), MEMBERS as usize);
        assert!(as_member.iter().all(|m| m["may_remove"] == false), "a member removes nobody");

        // This month's calls: the members list and the usage report agree, from two queries.
        let usage = get(&app, "/api/team/adoption", &owner).await;
        assert_eq!(usage["members"].as_array().unwrap().len(), MEMBERS as usize);
        let listed: u64 = members.iter().map(|m| m["calls_this_month"].as_u64().unwrap()).sum();
        assert_eq!(usage["totals"]["calls_this_month"].as_u64().unwrap(), listed, "{}", usage["totals"]);
        // Its pages: the same members in the same order as the members list, and the totals (one
        // grouped query over the team) the sums of every page's lines.
        let (lines, pages) = all_pages(&app, "/api/team/adoption", "members", 3, &owner).await;
        assert_eq!(pages, 4, "10 members in pages of 3");
        let order = |rows: &[Value]| rows.iter().map(|m| m["user_id"].clone()).collect::<Vec<_>>();
        assert_eq!(order(&lines), order(&members));
        assert_eq!(&lines, usage["members"].as_array().unwrap());
        let sum = |k: &str| lines.iter().map(|m| m[k].as_u64().unwrap()).sum::<u64>();
        let count = |k: &str| lines.iter().filter(|m| m[k] == true).count() as u64;
        let t = &usage["totals"];
        for k in ["calls_this_month", "minutes_this_month", "calls_last_month", "minutes_last_month", "devices"] {
            assert_eq!(t[k].as_u64().unwrap(), sum(k), "{k}: {t}");
        }
        assert_eq!((t["members"].as_u64(), t["idle"].as_u64(), t["second_factor"].as_u64()), (Some(MEMBERS.into()), Some(count("idle")), Some(count("second_factor"))), "{t}");
        assert!(sum("minutes_this_month") + sum("minutes_last_month") > 0, "the fixture's calls have minutes: {t}");
        let both_months = usage["totals"]["calls_this_month"].as_u64().unwrap()
            + usage["totals"]["calls_last_month"].as_u64().unwrap();
        // A year of 1,000 calls: about 83 a month; two months hold some and never all.
        assert!((1..u64::from(CALLS)).contains(&both_months), "{}", usage["totals"]);

        // The invites a page at a time; not the members'.
        let (invites, pages) = all_pages(&app, "/api/team/invites", "invites", 1, &owner).await;
        assert_eq!(pages, 2);
        assert_eq!(&invites, team["invites"].as_array().unwrap());
        assert_refused(
            call(&app, Method::GET, "/api/team/invites", Some(&member), None).await,
            StatusCode::FORBIDDEN,
            "forbidden_role",
            "a member lists no invites",
        );

        // The activity: every fixture row once, newest first, across pages.
        let (entries, pages) = all_pages(&app, "/api/team/audit", "entries", 40, &owner).await;
        assert_eq!(entries.len(), AUDIT as usize);
        assert_eq!(pages, 3);
        let times: Vec<&str> = entries.iter().map(|e| e["created_at"].as_str().unwrap()).collect();
        let mut sorted = times.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(times, sorted, "newest first");
        let ids: HashSet<_> = entries.iter().map(|e| e["id"].clone()).collect();
        assert_eq!(ids.len(), AUDIT as usize, "no row twice");

        // Bad pages are refused, not guessed.
        for (path, code) in [
            ("/api/team/members?limit=0", "invalid_limit"),
            ("/api/team/members?limit=501", "invalid_limit"),
            ("/api/team/members?cursor=nope", "invalid_cursor"),
            ("/api/team/invites?cursor=1.zz", "invalid_cursor"),
            ("/api/team/adoption?limit=501", "invalid_limit"),
            ("/api/team/adoption?cursor=nope", "invalid_cursor"),
        ] {
            assert_refused(
                call(&app, Method::GET, path, Some(&owner), None).await,
                StatusCode::BAD_REQUEST,
                code,
                path,
            );
        }

        // No subscription yet: the preview says so (the bench buys seats through stripe-mock).
        assert_refused(
            call(&app, Method::GET, "/api/team/seats/preview?seats=20", Some(&owner), None).await,
            StatusCode::CONFLICT,
            "no_team_subscription",
            "preview before checkout",
        );

        // A member's entitlements: their team, and the month's calls the members list shows.
        let ent = get(&app, "/api/entitlements", &member).await;
        assert_eq!(ent["team"]["id"], seeded.team_id.to_string(), "{ent}");
        assert_eq!(members[2]["email"], member_email);
        assert_eq!(ent["calls_this_month"], members[2]["calls_this_month"], "{ent}");
    }
);

/// Runs one statement on the app's database (a state no endpoint makes in bulk).
async fn execute(app: &TestApp, sql: &str) {
    use sqlx::Connection;
    if app.database_url.starts_with("sqlite") {
        let mut c = sqlx::SqliteConnection::connect(&app.database_url)
            .await
            .unwrap();
        sqlx::query(sql).execute(&mut c).await.unwrap();
    } else {
        let mut c = sqlx::PgConnection::connect(&app.database_url)
            .await
            .unwrap();
        sqlx::query(sql).execute(&mut c).await.unwrap();
    }
}

both!(
    async fn a_team_over_a_page_answers_its_counts_and_the_first_page_of_each_list(app) {
        const BIG: u32 = 130;
        const PENDING: u32 = 120;
        let fixture = TeamFixture {
            prefix: "t130".into(),
            domain: "bench.example.com".into(),
            members: BIG,
            calls: BIG,
            audit: 0,
            invites: PENDING,
            password_hash: Hasher::new().hash(PASSWORD).await.unwrap(),
            now: app.state.clock.now(),
        };
        let seeded = app.state.store.seed_team_fixture(&fixture).await.unwrap();
        let owner = signed_in(&app, &seeded.owner_email).await;
        let member = signed_in(&app, &fixture.member_email(3)).await;

        // Every member read a page at a time: the whole list to compare with.
        let (members, _) = all_pages(&app, "/api/team/members", "members", 500, &owner).await;
        assert_eq!(members.len(), BIG as usize);
        let (invites, _) = all_pages(&app, "/api/team/invites", "invites", 500, &owner).await;
        assert_eq!(invites.len(), PENDING as usize);

        // Two members with a confirmed authenticator app, one of them past the first page, and
        // one whose enrolment is pending (no second factor yet).
        let id = |i: usize| Uuid::parse_str(members[i]["user_id"].as_str().unwrap()).unwrap();
        let now = app.state.clock.now();
        for i in [0, 120, 121] {
            assert!(app.state.store.put_pending_totp(id(i), "s", now).await.unwrap());
        }
        let uid = |i: usize| {
            if app.database_url.starts_with("sqlite") {
                format!("x'{}'", id(i).simple())
            } else {
                format!("'{}'", id(i))
            }
        };
        execute(
            &app,
            &format!(
                "UPDATE mfa_totp SET confirmed_at = created_at WHERE user_id IN ({}, {})",
                uid(0),
                uid(120)
            ),
        )
        .await;
        let (members, _) = all_pages(&app, "/api/team/members", "members", 500, &owner).await;

        // The team: the counts of the whole team, the first page of each list (the paged
        // endpoints' first page, same order) and the cursor where the paged endpoints go on.
        let team = get(&app, "/api/team", &owner).await["team"].clone();
        assert_eq!(team["members_count"], BIG, "{}", team["members_count"]);
        assert_eq!(team["members_with_mfa"], 2);
        assert_eq!(team["invites_count"], PENDING);
        assert_eq!(team["seats"]["used"], BIG + PENDING);
        assert_eq!(team["owner_email"], seeded.owner_email);
        let first = get(&app, "/api/team/members", &owner).await;
        assert_eq!(team["members"], first["members"]);
        assert_eq!(team["members"].as_array().unwrap().len(), 100);
        assert_eq!(&team["members"].as_array().unwrap()[..], &members[..100]);
        assert_eq!(team["members"][0]["mfa"], true);
        let next = team["members_next"].as_str().expect("a cursor: the list goes on");
        assert_eq!(team["members_next"], first["next_cursor"]);
        let rest = get(&app, &format!("/api/team/members?cursor={next}"), &owner).await;
        assert_eq!(&rest["members"].as_array().unwrap()[..], &members[100..]);
        assert_eq!(rest["members"][20]["mfa"], true);
        assert_eq!(rest["members"][21]["mfa"], false, "pending is no second factor");
        let first = get(&app, "/api/team/invites", &owner).await;
        assert_eq!(team["invites"], first["invites"]);
        assert_eq!(&team["invites"].as_array().unwrap()[..], &invites[..100]);
        let next = team["invites_next"].as_str().expect("a cursor: the invites go on");
        let rest = get(&app, &format!("/api/team/invites?cursor={next}"), &owner).await;
        assert_eq!(&rest["invites"].as_array().unwrap()[..], &invites[100..]);

        // A member: the same members and counts, no invites, nobody's second factor.
        let seen = get(&app, "/api/team", &member).await["team"].clone();
        assert_eq!(seen["members_count"], BIG);
        assert_eq!(seen["members_with_mfa"], Value::Null);
        assert_eq!(seen["members"][0]["mfa"], Value::Null);
        assert_eq!(seen["members_next"], team["members_next"]);
        assert_eq!(seen["members"].as_array().unwrap().len(), 100);
        assert_eq!(seen["owner_email"], seeded.owner_email);
        assert_eq!(
            (&seen["invites"], &seen["invites_count"], &seen["invites_next"]),
            (&serde_json::json!([]), &Value::from(0), &Value::Null),
            "{seen}"
        );

        // Removing a member of the second page shows in the count and the pages.
        let gone = members[110]["user_id"].as_str().unwrap();
        let (s, v) = call(&app, Method::DELETE, &format!("/api/team/members/{gone}"), Some(&owner), None).await;
        assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
        let team = get(&app, "/api/team", &owner).await["team"].clone();
        assert_eq!(team["members_count"], BIG - 1);
        let (after, _) = all_pages(&app, "/api/team/members", "members", 500, &owner).await;
        assert_eq!(after.len(), BIG as usize - 1);
    }
);
