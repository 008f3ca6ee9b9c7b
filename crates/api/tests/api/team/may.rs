//! `GET /api/team`'s `may` follows the caller's role as the domain's table has it, and each flag
//! agrees with the endpoint it gates: where the flag is false the endpoint refuses the role, where
//! it is true it answers. The web renders these flags instead of comparing role names.

use closewise_domain::teams::{may, may_remove, Action, Role};
use reqwest::{Method, StatusCode};

use super::*;
use crate::both;

both!(
    async fn every_flag_follows_the_role_and_agrees_with_the_endpoint_it_gates(app) {
        let crew = crew(&app, "may").await;
        for (name, role) in [("owner", Role::Owner), ("admin", Role::Admin), ("member", Role::Member)] {
            let caller = crew.by(name, false);
            let team = get_team(&app, caller).await;
            let flags = &team["may"];
            // (flag, the domain's answer, the read the flag gates)
            let table = [
                ("manage_domains", may(role, Action::ManageDomains), "/api/team/domains"),
                ("manage_scim", may(role, Action::ManageScim), "/api/team/scim/tokens"),
                ("configure_sso", may(role, Action::ConfigureSso), "/api/team/sso"),
                ("manage_streams", may(role, Action::ManageStreams), "/api/team/streams"),
                ("view_adoption", may(role, Action::ViewAdoption), "/api/team/adoption"),
                ("view_activity", may(role, Action::ViewActivity), "/api/team/audit"),
                ("set_policy", may(role, Action::SetPolicy), "/api/team/policy"),
            ];
            for (flag, expected, path) in table {
                let case = format!("{name} {flag}");
                assert_eq!(flags[flag], expected, "{case}: {flags}");
                let got = call(&app, Method::GET, path, Some(&caller.token), None).await;
                if expected {
                    assert_eq!(got.0, StatusCode::OK, "{case} {path}: {}", got.1);
                } else {
                    assert_refused(got, StatusCode::FORBIDDEN, "forbidden_role", &case);
                }
            }
            assert_eq!(flags["remove_members"], may_remove(role, Role::Member), "{name} remove_members");
        }
    }
);

both!(
    async fn the_owner_may_everything_the_console_gates_and_a_member_nothing_of_it(app) {
        let crew = crew(&app, "all").await;
        let gated = ["remove_members", "set_policy", "manage_domains", "manage_scim", "configure_sso", "manage_streams", "view_adoption", "view_activity"];
        let owner = get_team(&app, &crew.owner).await;
        let member = get_team(&app, &crew.members[0]).await;
        for flag in gated {
            assert_eq!(owner["may"][flag], true, "owner {flag}");
            assert_eq!(member["may"][flag], false, "member {flag}");
        }
    }
);
