//! The mails we send. Each has a plain-text and an HTML body; links are absolute.

pub enum Template {
    Verification {
        link: String,
    },
    Reset {
        link: String,
    },
    PasswordChanged,
    AlreadyRegistered,
    /// An invitation to a team: `role` is "an admin" or "a member", `inviter` an address.
    TeamInvite {
        link: String,
        team: String,
        role: String,
        inviter: String,
    },
    /// A new desktop session (device code approved or browser sign-in): what and where, and the
    /// page to sign it out. Carries no token: `link` is the Devices list.
    NewSignin {
        device_name: String,
        platform: String,
        ip: String,
        /// When, already written for people (UTC).
        at: String,
        link: String,
    },
    /// A second factor was added: `factor` names it ("An authenticator app", "A passkey").
    MfaFactorAdded {
        factor: String,
    },
    /// A second factor was removed; `by_operator` when support reset it.
    MfaFactorRemoved {
        factor: String,
        by_operator: bool,
    },
    /// A recovery code was used to sign in or confirm an action; `left` unused codes remain.
    MfaRecoveryCodeUsed {
        left: u32,
    },
    /// A new set of recovery codes replaced the old one.
    MfaRecoveryCodesGenerated,
    /// A passkey was added to the account: its name, and where to review them.
    PasskeyAdded {
        name: String,
        link: String,
    },
    /// A passkey was removed from the account.
    PasskeyRemoved {
        name: String,
        link: String,
    },
    /// The weekly mail to a team's owner: its idle members (no call in 30 days, by
    /// address) and what reclaiming their seats would save, `saving` already written for people.
    TeamIdleSeats {
        team: String,
        idle: Vec<String>,
        seats_freed: u32,
        saving: String,
        link: String,
    },
    /// A renewal's payment failed: what (`amount`, for `team` or the account's own plan), the
    /// next try (already written for people; None after the last) and where to update the card.
    PaymentFailed {
        team: Option<String>,
        amount: String,
        next_attempt: Option<String>,
        link: String,
    },
    /// A payment that had failed went through: the receipt, and the invoice's page at Stripe.
    PaymentRecovered {
        team: Option<String>,
        amount: String,
        paid_on: String,
        invoice_url: Option<String>,
    },
    /// Stripe ended the subscription after its retries failed; how to come back.
    SubscriptionEndedUnpaid {
        team: Option<String>,
        link: String,
    },
    /// To a team's owner: an event stream kept failing for 3 days and is paused; `url` its
    /// destination, `error` the last failure, `link` the team page where "Retry now" resumes it.
    TeamStreamPaused {
        team: String,
        url: String,
        error: String,
        link: String,
    },
    /// To a team's owner: the SAML IdP's signing certificate in use ends on `expires_on` (already
    /// written for people; `expired` when that day has passed); `link` the team's single sign-on.
    SamlCertificateExpiring {
        team: String,
        subject: String,
        fingerprint: String,
        expires_on: String,
        expired: bool,
        link: String,
    },
    /// To a team's owner: IT finished with the setup link; `done` what it completed (already
    /// written for people; empty when nothing), `link` the team's setup links.
    SetupLinkFinished {
        team: String,
        done: Vec<String>,
        link: String,
    },
}

pub struct Rendered {
    pub subject: String,
    pub text: String,
    pub html: String,
}

impl Template {
    pub fn kind(&self) -> &'static str {
        match self {
            Template::Verification { .. } => "verification",
            Template::Reset { .. } => "reset",
            Template::PasswordChanged => "password_changed",
            Template::AlreadyRegistered => "already_registered",
            Template::TeamInvite { .. } => "team_invite",
            Template::NewSignin { .. } => "new_signin",
            Template::MfaFactorAdded { .. } => "mfa_factor_added",
            Template::MfaFactorRemoved { .. } => "mfa_factor_removed",
            Template::MfaRecoveryCodeUsed { .. } => "mfa_recovery_code_used",
            Template::MfaRecoveryCodesGenerated => "mfa_recovery_codes_generated",
            Template::PasskeyAdded { .. } => "passkey_added",
            Template::PasskeyRemoved { .. } => "passkey_removed",
            Template::TeamIdleSeats { .. } => "team_idle_seats",
            Template::PaymentFailed { .. } => "payment_failed",
            Template::PaymentRecovered { .. } => "payment_recovered",
            Template::SubscriptionEndedUnpaid { .. } => "subscription_ended_unpaid",
            Template::TeamStreamPaused { .. } => "team_stream_paused",
            Template::SamlCertificateExpiring { .. } => "saml_certificate_expiring",
            Template::SetupLinkFinished { .. } => "setup_link_finished",
        }
    }

    pub fn link(&self) -> Option<&str> {
        match self {
            Template::Verification { link }
            | Template::Reset { link }
            | Template::TeamInvite { link, .. } => Some(link),
            _ => None,
        }
    }

    pub fn render(&self, product: &str, base_url: &str) -> Rendered {
        let signin = format!("{base_url}/signin");
        let forgot = format!("{base_url}/forgot-password");
        let security = format!("{base_url}/settings#security");
        let not_you = format!("If this was not you, change your password now and review Settings → Security at {security}. Forgot your password? Reset it at {forgot}.");
        let (subject, paragraphs, button): (String, Vec<String>, Option<(&str, String)>) = match self {
            Template::MfaFactorAdded { factor } => (
                format!("A second factor was added to your {product} account"),
                vec![format!("{factor} was just added to your account as a second factor. Signing in now asks for it after your password."), not_you],
                None,
            ),
            Template::MfaFactorRemoved { factor, by_operator } => (
                format!("A second factor was removed from your {product} account"),
                vec![
                    if *by_operator {
                        format!("{product} support removed {} from your account at your request, and every device was signed out.", lower_first(factor))
                    } else {
                        format!("{factor} was just removed from your account's second factors.")
                    },
                    not_you,
                ],
                None,
            ),
            Template::MfaRecoveryCodeUsed { left } => (
                format!("A recovery code was used on your {product} account"),
                vec![
                    format!("One of your recovery codes was just used. You have {left} unused {} left; generate a new set in Settings → Security when you run low.", if *left == 1 { "code" } else { "codes" }),
                    not_you,
                ],
                None,
            ),
            Template::MfaRecoveryCodesGenerated => (
                format!("New recovery codes for your {product} account"),
                vec!["A new set of recovery codes was just generated for your account; the old codes no longer work.".into(), not_you],
                None,
            ),
            Template::Verification { link } => (
                format!("Confirm your {product} account"),
                vec![
                    format!("Welcome to {product}! Please confirm your email address to finish setting up your account."),
                    "This link is valid for 24 hours. If you did not sign up, you can ignore this email.".into(),
                ],
                Some(("Confirm your email", link.clone())),
            ),
            Template::Reset { link } => (
                format!("Reset your {product} password"),
                vec![
                    "Someone asked to reset the password of your account. If it was you, choose a new password:".into(),
                    "This link is valid for 1 hour and works once. If you did not ask for it, ignore this email: your password stays as it is.".into(),
                ],
                Some(("Choose a new password", link.clone())),
            ),
            Template::PasswordChanged => (
                format!("Your {product} password was changed"),
                vec![
                    "The password of your account was just changed, and every device was signed out.".into(),
                    format!("If this was not you, reset your password now at {forgot} and contact support."),
                ],
                None,
            ),
            Template::AlreadyRegistered => (
                format!("You already have a {product} account"),
                vec![
                    "Someone tried to sign up with this email address, but it already has an account.".into(),
                    format!("If it was you, sign in at {signin}. Forgot your password? Reset it at {forgot}."),
                    "If it was not you, no action is needed.".into(),
                ],
                None,
            ),
            Template::NewSignin { device_name, platform, ip, at, link } => (
                format!("New sign-in to your {product} account"),
                vec![
                    format!("The {product} app was just signed in to your account on a new device."),
                    format!("Device: {device_name} ({platform}). Address: {ip}. Time: {at}."),
                    format!("If this was you, there is nothing to do. If it was not, sign that device out in Settings → Devices, then change your password. Forgot it? Reset it at {forgot}."),
                ],
                Some(("Review your devices", link.clone())),
            ),
            Template::PasskeyAdded { name, link } => (
                format!("A passkey was added to your {product} account"),
                vec![
                    format!("The passkey \"{name}\" was just added to your account. It can now sign you in without your password."),
                    format!("If this was not you, remove it in Settings → Security, then change your password. Forgot it? Reset it at {forgot}."),
                ],
                Some(("Review your passkeys", link.clone())),
            ),
            Template::PasskeyRemoved { name, link } => (
                format!("A passkey was removed from your {product} account"),
                vec![
                    format!("The passkey \"{name}\" was just removed from your account. It can no longer sign you in."),
                    format!("If this was not you, change your password now. Forgot it? Reset it at {forgot}."),
                ],
                Some(("Review your passkeys", link.clone())),
            ),
            Template::TeamIdleSeats { team, idle, seats_freed, saving, link } => (
                format!("{team}: {} idle {} on {product}", idle.len(), if idle.len() == 1 { "seat" } else { "seats" }),
                vec![
                    format!("These members of {team} have not had a call in 30 days: {}.", idle.join(", ")),
                    format!("Reclaiming their seats lowers the team's seats by {seats_freed} and saves {saving} a month, prorated from today. Review the team's usage and reclaim them on the Usage tab."),
                ],
                Some(("Review usage", link.clone())),
            ),
            Template::PaymentFailed { team, amount, next_attempt, link } => {
                let what = match team {
                    Some(team) => format!("the seats of {team} on {product} Pro"),
                    None => format!("your {product} Pro plan"),
                };
                let who = if team.is_some() { "The team keeps" } else { "You keep" };
                (
                    match team {
                        Some(team) => format!("{team}: the payment for {product} failed"),
                        None => format!("Your {product} payment failed"),
                    },
                    vec![
                        format!("We could not charge the card on file {amount} for {what}."),
                        match next_attempt {
                            Some(date) => format!("We will try again on {date}. {who} Pro until then; update the card now and we charge it at once."),
                            None => "That was the last try: unless the card is updated now, the plan ends.".to_owned(),
                        },
                    ],
                    Some(("Update the card", link.clone())),
                )
            }
            Template::PaymentRecovered { team, amount, paid_on, invoice_url } => (
                match team {
                    Some(team) => format!("{team}: payment received, thank you"),
                    None => format!("Your {product} payment went through"),
                },
                vec![
                    format!("Receipt: {amount} paid on {paid_on} for {}.", match team {
                        Some(team) => format!("the seats of {team} on {product} Pro"),
                        None => format!("your {product} Pro plan"),
                    }),
                    "The payment problem is solved; nothing else to do.".to_owned(),
                ],
                invoice_url.clone().map(|url| ("View the invoice", url)),
            ),
            Template::SubscriptionEndedUnpaid { team, link } => (
                match team {
                    Some(team) => format!("{team}: the {product} Pro seats have ended"),
                    None => format!("Your {product} Pro plan has ended"),
                },
                vec![
                    match team {
                        Some(team) => format!("We could not collect the payment for the seats of {team} after several tries, so the subscription has ended and its members are back on the Free Trial."),
                        None => "We could not collect your payment after several tries, so the subscription has ended and your account is back on the Free Trial.".to_owned(),
                    },
                    if team.is_some() {
                        "To come back, buy seats again on the team's page; the members keep their places.".to_owned()
                    } else {
                        format!("To come back, upgrade to {product} Pro again from your dashboard.")
                    },
                ],
                Some((if team.is_some() { "Buy seats" } else { "Open the dashboard" }, link.clone())),
            ),
            Template::TeamStreamPaused { team, url, error, link } => (
                format!("{team}: an event stream is paused on {product}"),
                vec![
                    format!("The event stream to {url} has failed for 3 days, so {product} paused it. Events are kept and are delivered in order once it is resumed."),
                    format!("The last failure: {error}. Fix the destination, then choose Retry now on the team page's Event streams."),
                ],
                Some(("Review event streams", link.clone())),
            ),
            Template::SamlCertificateExpiring { team, subject, fingerprint, expires_on, expired, link } => {
                let ends = if *expired { "expired" } else { "expires" };
                (
                    format!("{team}: your identity provider's certificate {ends} on {expires_on}"),
                    vec![
                        format!("The certificate your identity provider signs {team}'s single sign-on to {product} with ({subject}, SHA-256 fingerprint {fingerprint}) {ends} on {expires_on}."),
                        format!("Create its successor at your identity provider, then give {product} the new metadata under Single sign-on on the team page. Two certificates can be configured at once, so sign-ins keep working while your identity provider switches. Metadata read from a URL is read again every day: a new certificate published there is picked up by itself."),
                    ],
                    Some(("Review single sign-on", link.clone())),
                )
            }
            Template::SetupLinkFinished { team, done, link } => (
                format!("IT finished setting up {team}"),
                vec![
                    format!("Your IT contact finished with the setup link for {team} on {product}. The link no longer works."),
                    if done.is_empty() {
                        "Nothing was set up through it. Create a new setup link on the team page if something is left.".to_owned()
                    } else {
                        format!("Through it, they {}.", done.join(", "))
                    },
                    "Review what changed, and Require SSO when you are ready, on the team page.".to_owned(),
                ],
                Some(("Review the setup", link.clone())),
            ),
            Template::TeamInvite { link, team, role, inviter } => (
                format!("You're invited to join {team} on {product}"),
                vec![
                    format!("{inviter} invited you to join the team {team} on {product} as {role}."),
                    "Sign in or create an account with this email address, then accept the invitation. The link is valid for 7 days and works once. If you were not expecting it, you can ignore this email.".into(),
                ],
                Some(("Accept the invitation", link.clone())),
            ),
        };
        let mut text = paragraphs.join("\n\n");
        if let Some((label, link)) = &button {
            text.push_str(&format!("\n\n{label}: {link}"));
        }
        text.push_str(&format!("\n\n— The {product} team\n"));
        let mut html = String::from("<!doctype html><html><body style=\"font-family:sans-serif;line-height:1.5;color:#111\">");
        for p in &paragraphs {
            html.push_str(&format!("<p>{}</p>", escape(p)));
        }
        if let Some((label, link)) = &button {
            html.push_str(&format!(
                "<p><a href=\"{0}\" style=\"background:#2563eb;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none\">{1}</a></p><p style=\"font-size:12px;color:#555\">Or open this link: {0}</p>",
                escape(link),
                escape(label)
            ));
        }
        html.push_str(&format!(
            "<p>— The {} team</p></body></html>",
            escape(product)
        ));
        Rendered {
            subject,
            text,
            html,
        }
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
#[path = "templates_tests.rs"]
mod tests;
