use super::*;

#[test]
fn the_verification_mail_carries_its_link_in_both_bodies() {
    let link = "http://127.0.0.1:8080/verify?token=abc";
    let r =
        Template::Verification { link: link.into() }.render("Closewise", "http://127.0.0.1:8080");
    assert!(r.text.contains(link));
    assert!(r.html.contains(link));
    assert_eq!(r.subject, "Confirm your Closewise account");
}

#[test]
fn the_team_invite_names_the_team_role_and_inviter_and_carries_its_link() {
    let link = "http://127.0.0.1:8080/invite?token=abc";
    let r = Template::TeamInvite {
        link: link.into(),
        team: "Northwind <Sales>".into(),
        role: "a member".into(),
        inviter: "ana@northwind.example".into(),
    }
    .render("Closewise", "http://127.0.0.1:8080");
    assert_eq!(
        r.subject,
        "You're invited to join Northwind <Sales> on Closewise"
    );
    assert!(r.text.contains(link) && r.html.contains(link));
    assert!(r.text.contains("ana@northwind.example") && r.text.contains("7 days"));
    assert!(r.html.contains("Northwind &lt;Sales&gt;"), "{}", r.html);
}

#[test]
fn the_new_signin_mail_names_the_device_address_and_time_and_links_to_devices() {
    let r = Template::NewSignin {
        device_name: "Ana's <MacBook>".into(),
        platform: "macos".into(),
        ip: "203.0.113.7".into(),
        at: "25 Nov 2026, 17:35 UTC".into(),
        link: "http://127.0.0.1:8080/settings#devices".into(),
    }
    .render("Closewise", "http://127.0.0.1:8080");
    assert_eq!(r.subject, "New sign-in to your Closewise account");
    for part in [
        "Ana's <MacBook>",
        "macos",
        "203.0.113.7",
        "25 Nov 2026, 17:35 UTC",
    ] {
        assert!(r.text.contains(part), "{part} in {}", r.text);
    }
    assert!(r.text.contains("http://127.0.0.1:8080/settings#devices"));
    assert!(r.html.contains("Ana&#39;s &lt;MacBook&gt;"), "{}", r.html);
    assert!(!r.html.contains("<MacBook>"));
}

#[test]
fn the_second_factor_mails_say_what_changed() {
    let base = "http://127.0.0.1:8080";
    let added = Template::MfaFactorAdded {
        factor: "An authenticator app".into(),
    }
    .render("Closewise", base);
    assert!(
        added.text.contains("An authenticator app was just added"),
        "{}",
        added.text
    );
    assert!(added.text.contains("/settings#security"));
    let reset = Template::MfaFactorRemoved {
        factor: "An authenticator app".into(),
        by_operator: true,
    }
    .render("Closewise", base);
    assert!(
        reset.text.contains("support removed an authenticator app"),
        "{}",
        reset.text
    );
    let used = Template::MfaRecoveryCodeUsed { left: 1 }.render("Closewise", base);
    assert!(
        used.text.contains("You have 1 unused code left"),
        "{}",
        used.text
    );
    let used = Template::MfaRecoveryCodeUsed { left: 7 }.render("Closewise", base);
    assert!(used.text.contains("7 unused codes"));
    let new = Template::MfaRecoveryCodesGenerated.render("Closewise", base);
    assert_eq!(new.subject, "New recovery codes for your Closewise account");
}

#[test]
fn html_is_escaped() {
    assert_eq!(
        escape("<a href=\"x\">&</a>"),
        "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
    );
}

#[test]
fn the_passkey_mails_name_the_passkey_and_link_to_security() {
    let link = "http://127.0.0.1:8080/settings#security".to_string();
    let added = Template::PasskeyAdded {
        name: "<Work> laptop".into(),
        link: link.clone(),
    }
    .render("Closewise", "http://127.0.0.1:8080");
    assert_eq!(
        added.subject,
        "A passkey was added to your Closewise account"
    );
    assert!(added.text.contains("\"<Work> laptop\" was just added") && added.text.contains(&link));
    assert!(added.html.contains("&lt;Work&gt; laptop") && !added.html.contains("<Work>"));
    let removed = Template::PasskeyRemoved {
        name: "Phone".into(),
        link,
    }
    .render("Closewise", "http://127.0.0.1:8080");
    assert_eq!(
        removed.subject,
        "A passkey was removed from your Closewise account"
    );
    assert!(removed.text.contains("\"Phone\" was just removed"));
}

#[test]
fn the_certificate_mail_names_the_certificate_its_date_and_what_to_do() {
    let link = "http://127.0.0.1:8080/team#sso-title".to_string();
    let mail = |expired| Template::SamlCertificateExpiring {
        team: "Acme <Sales>".into(),
        subject: "CN=Acme IdP".into(),
        fingerprint: "AB:CD".into(),
        expires_on: "March 31, 2027".into(),
        expired,
        link: link.clone(),
    };
    let soon = mail(false).render("Closewise", "http://127.0.0.1:8080");
    assert_eq!(
        soon.subject,
        "Acme <Sales>: your identity provider's certificate expires on March 31, 2027"
    );
    assert!(
        soon.text.contains("CN=Acme IdP, SHA-256 fingerprint AB:CD"),
        "{}",
        soon.text
    );
    assert!(
        soon.text.contains("expires on March 31, 2027"),
        "{}",
        soon.text
    );
    assert!(soon.text.contains(&link), "{}", soon.text);
    assert!(soon.html.contains("Acme &lt;Sales&gt;"));
    let over = mail(true).render("Closewise", "http://127.0.0.1:8080");
    assert!(
        over.subject
            .ends_with("certificate expired on March 31, 2027"),
        "{}",
        over.subject
    );
    assert_eq!(
        Template::SamlCertificateExpiring {
            team: String::new(),
            subject: String::new(),
            fingerprint: String::new(),
            expires_on: String::new(),
            expired: false,
            link,
        }
        .kind(),
        "saml_certificate_expiring"
    );
}

#[test]
fn the_setup_link_finished_mail_says_what_it_did_and_links_to_the_team_setup_links() {
    let link = "http://127.0.0.1:8080/team/security#team-setup-links".to_string();
    let mail = |done: Vec<String>| Template::SetupLinkFinished {
        team: "Acme <Sales>".into(),
        done,
        link: link.clone(),
    };
    let both = mail(vec![
        "verified the company domain".into(),
        "created a SCIM token".into(),
    ])
    .render("Closewise", "http://127.0.0.1:8080");
    assert_eq!(both.subject, "IT finished setting up Acme <Sales>");
    assert!(
        both.text
            .contains("they verified the company domain, created a SCIM token."),
        "{}",
        both.text
    );
    assert!(both.text.contains(&link), "{}", both.text);
    assert!(both.html.contains("Acme &lt;Sales&gt;"), "{}", both.html);
    let nothing = mail(vec![]).render("Closewise", "http://127.0.0.1:8080");
    assert!(
        nothing.text.contains("Nothing was set up through it."),
        "{}",
        nothing.text
    );
    assert_eq!(mail(vec![]).kind(), "setup_link_finished");
}
