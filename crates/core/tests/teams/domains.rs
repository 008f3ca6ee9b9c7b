//! Verified domains against a local DNS server (`closewise_testkit::dns`): claimed by the owner,
//! verified by their TXT record, one team at a time, required for domain join, re-checked daily
//! and un-verified a week after their record went; every change audited with who made it.

use closewise_core::domains::{Dns, Domains, DomainsError};
use closewise_core::sweep::Sweeper;
use closewise_domain::teams::domains::txt_value;
use closewise_testkit::dns::TxtServer;
use time::Duration as Days;

use super::*;

fn refused<T: std::fmt::Debug>(r: Result<T, DomainsError>) -> &'static str {
    r.expect_err("refused").code()
}

async fn actions(fx: &Fx, team: Uuid) -> Vec<(String, String)> {
    let rows = fx.store.team_audit(team, 50).await.unwrap();
    rows.into_iter().map(|r| (r.action, r.actor)).collect()
}

pub(crate) async fn domains_are_verified_by_their_record_and_by_one_team(postgres: bool) {
    let fx = fixture(postgres).await;
    let dns = TxtServer::start().await;
    let domains = Domains::new(fx.store.clone(), fx.clock.clone(), Dns::at(dns.addr));
    let crew = fx.crew("dom").await;
    let owner = crew.owner;
    // The owner's alone.
    assert_eq!(
        refused(domains.add(crew.admins[0], "northwind.example").await),
        "forbidden_role"
    );
    assert_eq!(
        refused(domains.list(crew.members[0]).await),
        "forbidden_role"
    );
    let outsider = fx.user("nobody@elsewhere.test").await;
    assert_eq!(refused(domains.list(outsider).await), "team_not_found");
    // Public mail domains and malformed names are refused.
    assert_eq!(
        refused(domains.add(owner, "Outlook.fr").await),
        "public_mail_domain"
    );
    assert_eq!(
        refused(domains.add(owner, "ana@northwind.example").await),
        "invalid_domain"
    );
    let d = domains.add(owner, " NorthWind.Example. ").await.unwrap();
    assert_eq!(
        (d.domain.as_str(), d.status.as_str(), d.txt_name.as_str()),
        (
            "northwind.example",
            "pending",
            "_closewise-challenge.northwind.example"
        )
    );
    assert!(d.txt_value.starts_with("closewise-domain-verification="));
    assert_eq!(
        d.txt_value.len(),
        "closewise-domain-verification=".len() + 32
    );
    assert_eq!(
        refused(domains.add(owner, "northwind.example").await),
        "domain_exists"
    );
    // Domain join needs a verified domain now: the owner's own address's is not enough.
    let join = fx
        .teams
        .set_join_domain(&m(owner), Some("northwind.test"))
        .await;
    assert_eq!(join.unwrap_err().code(), "domain_not_allowed");
    let join = fx
        .teams
        .set_join_domain(&m(owner), Some("northwind.example"))
        .await;
    assert_eq!(join.unwrap_err().code(), "domain_not_allowed", "pending");
    // No record, another value, then the record.
    assert_eq!(
        refused(domains.verify(owner, d.id).await),
        "domain_not_verified"
    );
    dns.set(
        &d.txt_name,
        &["closewise-domain-verification=someone-elses"],
    );
    assert_eq!(
        refused(domains.verify(owner, d.id).await),
        "domain_not_verified"
    );
    dns.set(&d.txt_name, &["v=spf1 -all", &d.txt_value]);
    let v = domains.verify(owner, d.id).await.unwrap();
    assert_eq!(
        (v.status.as_str(), v.verified_at),
        ("verified", Some(fx.clock.now()))
    );
    assert_eq!(
        domains.verify(owner, d.id).await.unwrap().status,
        "verified",
        "again"
    );
    let view = fx
        .teams
        .set_join_domain(&m(owner), Some("northwind.example"))
        .await
        .unwrap();
    assert_eq!(view.join_domain.as_deref(), Some("northwind.example"));
    assert_eq!(
        fx.teams
            .view(owner)
            .await
            .unwrap()
            .domain_join_offer
            .as_deref(),
        Some("northwind.example")
    );
    // Another team: the domain is verified by one team at a time.
    let other = fx.crew("oth").await;
    assert_eq!(
        refused(domains.add(other.owner, "northwind.example").await),
        "domain_taken"
    );
    assert_eq!(
        refused(domains.verify(other.owner, d.id).await),
        "domain_not_found"
    );
    assert_eq!(
        refused(domains.remove(other.owner, d.id).await),
        "domain_not_found"
    );
    assert_eq!(
        fx.store
            .team_for_verified_domain("northwind.example")
            .await
            .unwrap(),
        Some(crew.id)
    );
    // Removing it ends domain join at it.
    domains.remove(owner, d.id).await.unwrap();
    assert_eq!(fx.teams.view(owner).await.unwrap().join_domain, None);
    assert!(domains.list(owner).await.unwrap().is_empty());
    assert_eq!(
        refused(domains.remove(owner, d.id).await),
        "domain_not_found"
    );
    // Now the other team may verify it, with its own record.
    let o = domains.add(other.owner, "northwind.example").await.unwrap();
    assert_ne!(o.txt_value, d.txt_value);
    assert_eq!(
        refused(domains.verify(other.owner, o.id).await),
        "domain_not_verified",
        "the old record is not theirs"
    );
    dns.set(&o.txt_name, &[&o.txt_value]);
    assert_eq!(
        domains.verify(other.owner, o.id).await.unwrap().status,
        "verified"
    );
    // Every change, with the owner who made it.
    let owner_email = "owner-dom@northwind.test".to_string();
    let trail = actions(&fx, crew.id).await;
    for a in [
        "team.domain_add",
        "team.domain_verify",
        "team.domain_remove",
    ] {
        assert!(
            trail.contains(&(a.to_string(), owner_email.clone())),
            "{a} in {trail:?}"
        );
    }
}

pub(crate) async fn the_daily_recheck_unverifies_a_record_gone_for_a_week(postgres: bool) {
    let fx = fixture(postgres).await;
    let dns = TxtServer::start().await;
    let domains = Domains::new(fx.store.clone(), fx.clock.clone(), Dns::at(dns.addr));
    let sweeper = Sweeper::new(fx.store.clone(), fx.clock.clone()).with_domains(domains.clone());
    let crew = fx.crew("re").await;
    let d = domains.add(crew.owner, "contoso.example").await.unwrap();
    let pending = domains.add(crew.owner, "pending.example").await.unwrap();
    dns.set(&d.txt_name, &[&d.txt_value]);
    domains.verify(crew.owner, d.id).await.unwrap();
    fx.teams
        .set_join_domain(&m(crew.owner), Some("contoso.example"))
        .await
        .unwrap();
    let now = || fx.clock.now();
    let row = || async {
        domains
            .list(crew.owner)
            .await
            .unwrap()
            .into_iter()
            .find(|x| x.id == d.id)
            .unwrap()
    };
    // Checked at the verification: not due until a day later; pending domains are never re-checked.
    assert_eq!(sweeper.recheck_domains(now()).await.unwrap().checked, 0);
    fx.clock.advance(Days::days(1));
    let report = sweeper.recheck_domains(now()).await.unwrap();
    assert_eq!((report.checked, report.unverified), (1, 0));
    assert_eq!(row().await.last_seen_at, Some(now()));
    assert_eq!(
        domains
            .list(crew.owner)
            .await
            .unwrap()
            .iter()
            .find(|x| x.id == pending.id)
            .unwrap()
            .last_checked_at,
        None
    );
    // The record goes: still verified for a week after it was last seen.
    dns.set(&d.txt_name, &[]);
    let last_seen = now();
    for day in 1..7 {
        fx.clock.advance(Days::days(1));
        let report = sweeper.recheck_domains(now()).await.unwrap();
        assert_eq!((report.checked, report.unverified), (1, 0), "day {day}");
        let r = row().await;
        assert_eq!(
            (r.status.as_str(), r.last_seen_at, r.last_checked_at),
            ("verified", Some(last_seen), Some(now())),
            "day {day}"
        );
    }
    // A second sweep the same day looks nothing up.
    assert_eq!(sweeper.recheck_domains(now()).await.unwrap().checked, 0);
    fx.clock.advance(Days::days(1));
    let report = sweeper.recheck_domains(now()).await.unwrap();
    assert_eq!((report.checked, report.unverified), (1, 1));
    assert_eq!(row().await.status, "pending");
    assert_eq!(
        fx.teams.view(crew.owner).await.unwrap().join_domain,
        None,
        "domain join ends with it"
    );
    assert_eq!(
        fx.store
            .team_for_verified_domain("contoso.example")
            .await
            .unwrap(),
        None
    );
    let trail = actions(&fx, crew.id).await;
    assert!(
        trail.contains(&("team.domain_unverify".to_string(), "closewise".to_string())),
        "{trail:?}"
    );
    // Published again: verified again.
    dns.set(
        &d.txt_name,
        &[&txt_value(
            d.txt_value
                .trim_start_matches("closewise-domain-verification="),
        )],
    );
    assert_eq!(
        domains.verify(crew.owner, d.id).await.unwrap().status,
        "verified"
    );
}
