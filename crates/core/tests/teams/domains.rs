//! Verified domains against a local DNS server (`closewise_testkit::dns`): claimed by the owner,
//! verified by their TXT record, one team at a time, required for domain join, re-checked daily
//! and un-verified a week after their record went; every change audited with who made it.

use closewise_core::actor::Actor;
use closewise_core::limits::{unlimited, Limit, LimitError, RateLimits, SpendFuture};
use closewise_core::sweep::Sweeper;
use closewise_core::verified_domains::{Dns, VerifiedDomains, VerifiedDomainsError};
use closewise_domain::teams::domains::txt_value;
use closewise_testkit::dns::TxtServer;
use time::Duration as Days;

use super::*;

fn refused<T: std::fmt::Debug>(r: Result<T, VerifiedDomainsError>) -> &'static str {
    r.expect_err("refused").code()
}

/// The user `id` acting as a member.
async fn member_of(fx: &Fx, id: Uuid) -> Actor {
    let user = fx.store.user_by_id(id).await.unwrap().expect("a user");
    Actor::member(id, user.email)
}

async fn actions(fx: &Fx, team: Uuid) -> Vec<(String, String)> {
    let rows = fx.store.team_audit(team, 50).await.unwrap();
    rows.into_iter().map(|r| (r.action, r.actor)).collect()
}

both!(
    async fn domains_are_verified_by_their_record_and_by_one_team(fx: Fx) from fixture {
        let dns = TxtServer::start().await;
        let domains = VerifiedDomains::new(
            fx.store.clone(),
            fx.clock.clone(),
            Dns::at(dns.addr),
            unlimited(),
        );
        let crew = fx.crew("dom").await;
        let owner = crew.owner;
        // The owner's alone.
        assert_eq!(
            refused(
                domains
                    .add(
                        &member_of(&fx, crew.admins[0]).await,
                        None,
                        "northwind.example"
                    )
                    .await
            ),
            "forbidden_role"
        );
        assert_eq!(
            refused(
                domains
                    .list(&member_of(&fx, crew.members[0]).await, None)
                    .await
            ),
            "forbidden_role"
        );
        let outsider = fx.user("nobody@elsewhere.test").await;
        assert_eq!(
            refused(domains.list(&member_of(&fx, outsider).await, None).await),
            "team_not_found"
        );
        // Public mail domains and malformed names are refused.
        assert_eq!(
            refused(
                domains
                    .add(&member_of(&fx, owner).await, None, "Outlook.fr")
                    .await
            ),
            "public_mail_domain"
        );
        assert_eq!(
            refused(
                domains
                    .add(&member_of(&fx, owner).await, None, "ana@northwind.example")
                    .await
            ),
            "invalid_domain"
        );
        let d = domains
            .add(&member_of(&fx, owner).await, None, " NorthWind.Example. ")
            .await
            .unwrap();
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
            refused(
                domains
                    .add(&member_of(&fx, owner).await, None, "northwind.example")
                    .await
            ),
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
            refused(
                domains
                    .verify(&member_of(&fx, owner).await, None, d.id)
                    .await
            ),
            "domain_not_verified"
        );
        dns.set(
            &d.txt_name,
            &["closewise-domain-verification=someone-elses"],
        );
        assert_eq!(
            refused(
                domains
                    .verify(&member_of(&fx, owner).await, None, d.id)
                    .await
            ),
            "domain_not_verified"
        );
        dns.set(&d.txt_name, &["v=spf1 -all", &d.txt_value]);
        let v = domains
            .verify(&member_of(&fx, owner).await, None, d.id)
            .await
            .unwrap();
        assert_eq!(
            (v.status.as_str(), v.verified_at),
            ("verified", Some(fx.clock.now()))
        );
        assert_eq!(
            domains
                .verify(&member_of(&fx, owner).await, None, d.id)
                .await
                .unwrap()
                .status,
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
            refused(
                domains
                    .add(
                        &member_of(&fx, other.owner).await,
                        None,
                        "northwind.example"
                    )
                    .await
            ),
            "domain_taken"
        );
        assert_eq!(
            refused(
                domains
                    .verify(&member_of(&fx, other.owner).await, None, d.id)
                    .await
            ),
            "domain_not_found"
        );
        assert_eq!(
            refused(
                domains
                    .remove(&member_of(&fx, other.owner).await, None, d.id)
                    .await
            ),
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
        domains
            .remove(&member_of(&fx, owner).await, None, d.id)
            .await
            .unwrap();
        assert_eq!(fx.teams.view(owner).await.unwrap().join_domain, None);
        assert!(domains
            .list(&member_of(&fx, owner).await, None)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            refused(
                domains
                    .remove(&member_of(&fx, owner).await, None, d.id)
                    .await
            ),
            "domain_not_found"
        );
        // Now the other team may verify it, with its own record.
        let o = domains
            .add(
                &member_of(&fx, other.owner).await,
                None,
                "northwind.example",
            )
            .await
            .unwrap();
        assert_ne!(o.txt_value, d.txt_value);
        assert_eq!(
            refused(
                domains
                    .verify(&member_of(&fx, other.owner).await, None, o.id)
                    .await
            ),
            "domain_not_verified",
            "the old record is not theirs"
        );
        dns.set(&o.txt_name, &[&o.txt_value]);
        assert_eq!(
            domains
                .verify(&member_of(&fx, other.owner).await, None, o.id)
                .await
                .unwrap()
                .status,
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
);

both!(
    async fn the_daily_recheck_unverifies_a_record_gone_for_a_week(fx: Fx) from fixture {
        let dns = TxtServer::start().await;
        let domains = VerifiedDomains::new(
            fx.store.clone(),
            fx.clock.clone(),
            Dns::at(dns.addr),
            unlimited(),
        );
        let sweeper = Sweeper::new(fx.store.clone(), fx.clock.clone()).with_domains(domains.clone());
        let crew = fx.crew("re").await;
        let d = domains
            .add(&member_of(&fx, crew.owner).await, None, "contoso.example")
            .await
            .unwrap();
        let pending = domains
            .add(&member_of(&fx, crew.owner).await, None, "pending.example")
            .await
            .unwrap();
        dns.set(&d.txt_name, &[&d.txt_value]);
        domains
            .verify(&member_of(&fx, crew.owner).await, None, d.id)
            .await
            .unwrap();
        fx.teams
            .set_join_domain(&m(crew.owner), Some("contoso.example"))
            .await
            .unwrap();
        let now = || fx.clock.now();
        let row = || async {
            domains
                .list(&member_of(&fx, crew.owner).await, None)
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
                .list(&member_of(&fx, crew.owner).await, None)
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
            domains
                .verify(&member_of(&fx, crew.owner).await, None, d.id)
                .await
                .unwrap()
                .status,
            "verified"
        );
    }
);

/// A budget of one look-up, whoever spends it.
struct OneLookUp(std::sync::Mutex<Vec<(Limit, String)>>);

impl RateLimits for OneLookUp {
    fn spend<'a>(&'a self, limit: Limit, key: &'a str) -> SpendFuture<'a> {
        let mut spent = self.0.lock().unwrap();
        spent.push((limit, key.to_owned()));
        let over = spent.len() > 1;
        Box::pin(async move {
            if over {
                Err(LimitError::Limited { retry_after: 60 })
            } else {
                Ok(())
            }
        })
    }
}

both!(
    async fn a_verification_spends_the_members_budget_once_their_role_allows_it(fx: Fx) from fixture {
        let dns = TxtServer::start().await;
        let budget = std::sync::Arc::new(OneLookUp(Default::default()));
        let domains = VerifiedDomains::new(
            fx.store.clone(),
            fx.clock.clone(),
            Dns::at(dns.addr),
            budget.clone(),
        );
        let crew = fx.crew("lim").await;
        let owner = member_of(&fx, crew.owner).await;
        let d = domains.add(&owner, None, "limits.example").await.unwrap();
        // An admin is refused by the rule before anything is spent.
        let admin = member_of(&fx, crew.admins[0]).await;
        assert_eq!(
            refused(domains.verify(&admin, None, d.id).await),
            "forbidden_role"
        );
        assert!(budget.0.lock().unwrap().is_empty());
        assert_eq!(
            refused(domains.verify(&owner, None, d.id).await),
            "domain_not_verified"
        );
        assert_eq!(
            budget.0.lock().unwrap().as_slice(),
            &[(Limit::DomainCheckPerUser, crew.owner.to_string())]
        );
        assert_eq!(
            refused(domains.verify(&owner, None, d.id).await),
            "rate_limited"
        );
    }
);

both!(
    async fn an_operator_manages_any_teams_domains_audited_with_the_reason(fx: Fx) from fixture {
        let dns = TxtServer::start().await;
        let domains = VerifiedDomains::new(
            fx.store.clone(),
            fx.clock.clone(),
            Dns::at(dns.addr),
            unlimited(),
        );
        let crew = fx.crew("ops").await;
        let ops = Actor::operator("ops-alice", Some("ticket 9".into()));
        // An operator names the team; naming none is no team at all.
        assert_eq!(refused(domains.list(&ops, None).await), "team_not_found");
        let d = domains
            .add(&ops, Some(crew.id), "ops.example")
            .await
            .unwrap();
        dns.set(&d.txt_name, &[&d.txt_value]);
        domains.verify(&ops, Some(crew.id), d.id).await.unwrap();
        let off = domains
            .disable(&ops, Some(crew.id), "OPS.example.")
            .await
            .unwrap();
        assert_eq!(off.status, "pending");
        // A member naming another team finds nothing there.
        let other = fx.crew("ops2").await;
        let stranger = member_of(&fx, other.owner).await;
        assert_eq!(
            refused(domains.list(&stranger, Some(crew.id)).await),
            "team_not_found"
        );
        let rows = fx.store.team_audit(crew.id, 50).await.unwrap();
        let disable = rows
            .iter()
            .find(|r| r.action == "team.domain_disable")
            .expect("audited");
        assert_eq!(
            (disable.actor.as_str(), disable.reason.as_deref()),
            ("ops-alice", Some("ticket 9"))
        );
        assert!(rows
            .iter()
            .any(|r| r.action == "team.domain_add" && r.actor == "ops-alice"));
    }
);
