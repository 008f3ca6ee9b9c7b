//! The accounts service on both databases: a repeated sign-up mails its owner at most once per
//! resend interval (the domain's `resend_wait`), and password checks spend the adapter's budget
//! before comparing, refund it when right, and pass its refusal through untouched.

use std::sync::atomic::{AtomicUsize, Ordering};

use closewise_core::accounts::{AccountError, Accounts, Caller, PasswordBudget};
use closewise_core::clock::Clock;
use closewise_core::mail::Composer;
use closewise_core::password::Hasher;
use closewise_core::store::mail::MailFilter;
use closewise_core::store::Store;
use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_testkit::services::core_fixture;
use closewise_testkit::{both, Backend, TempDir};
use uuid::Uuid;

struct Fx {
    accounts: Accounts,
    store: Store,
    clock: Clock,
    _dir: TempDir,
}

async fn fixture(backend: Backend) -> Fx {
    let core = core_fixture(backend, "accounts").await;
    let accounts = Accounts::new(
        core.store.clone(),
        core.billing,
        Hasher::fast_for_tests(),
        Composer::new("http://127.0.0.1:8080"),
        core.clock.clone(),
        closewise_core::mfa::Mfa::new(
            core.store.clone(),
            core.clock.clone(),
            closewise_core::mfa::SecretBox::new(&[7; 32]),
            Composer::new("http://127.0.0.1:8080"),
        ),
    );
    Fx {
        accounts,
        store: core.store,
        clock: core.clock,
        _dir: core.dir,
    }
}

fn email(s: &str) -> Email {
    Email::parse(s).unwrap()
}

fn password(s: &str) -> Password {
    Password::parse(s).unwrap()
}

async fn verification_mails(fx: &Fx, to: &str) -> usize {
    let mails = fx.store.list_mail(Some(to), MailFilter::All, 50).await;
    let mails = mails.unwrap();
    mails.iter().filter(|m| m.kind == "verification").count()
}

/// Counts what the service spends and refunds; refuses every check when `refuse`.
#[derive(Default)]
struct Budget {
    refuse: bool,
    spent: AtomicUsize,
    refunded: AtomicUsize,
}

impl PasswordBudget for Budget {
    type Spent = ();
    type Refusal = &'static str;
    async fn spend(&self, _account: &str) -> Result<(), &'static str> {
        if self.refuse {
            return Err("refused");
        }
        self.spent.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
    async fn refund(&self, _spent: ()) {
        self.refunded.fetch_add(1, Ordering::SeqCst);
    }
}

async fn sign_up(fx: &Fx, address: &str, pass: &str) {
    let (a, p) = (email(address), password(pass));
    fx.accounts.sign_up(&a, &p, None).await.unwrap();
}

async fn signed_up(fx: &Fx, address: &str, pass: &str) -> Caller {
    sign_up(fx, address, pass).await;
    let a = email(address);
    let user = fx.store.user_by_email(a.as_str()).await.unwrap().unwrap();
    Caller {
        user_id: user.id,
        session_id: Uuid::now_v7(),
    }
}

both!(
    async fn a_repeated_sign_up_mails_the_owner_again_only_after_the_resend_interval(
        backend: Backend,
    ) {
        let fx = fixture(backend).await;
        let a = "ana@example.com";
        signed_up(&fx, a, "first password 1").await;
        assert_eq!(verification_mails(&fx, a).await, 1);

        fx.clock.advance(time::Duration::milliseconds(59_999));
        sign_up(&fx, a, "second password 2").await;
        assert_eq!(verification_mails(&fx, a).await, 1, "within the interval");

        fx.clock.advance(time::Duration::milliseconds(1));
        sign_up(&fx, a, "third password 3").await;
        assert_eq!(verification_mails(&fx, a).await, 2, "once it has passed");

        // A resend is asked for by the owner (the API limits it per address): not throttled.
        let owner = email(a);
        fx.accounts.resend(&owner, None).await.unwrap();
        assert_eq!(verification_mails(&fx, a).await, 3, "resend");
    }
);

both!(
    async fn a_password_check_spends_the_budget_first_and_refunds_it_when_right(backend: Backend) {
        let fx = fixture(backend).await;
        let caller = signed_up(&fx, "bo@example.com", "right password 1").await;
        let budget = Budget::default();

        let new = password("new password 22");
        let wrong = fx
            .accounts
            .change_password(caller, "wrong password", &new, &budget)
            .await;
        assert!(matches!(wrong, Err(AccountError::WrongCurrentPassword)));
        assert_eq!(budget.spent.load(Ordering::SeqCst), 1);
        assert_eq!(budget.refunded.load(Ordering::SeqCst), 0, "wrong: kept");

        let until = fx
            .accounts
            .reauthenticate(caller, "right password 1", None, &budget)
            .await
            .unwrap()
            .unwrap();
        assert!(until > fx.clock.now());
        assert_eq!(budget.spent.load(Ordering::SeqCst), 2);
        assert_eq!(budget.refunded.load(Ordering::SeqCst), 1, "right: refunded");
    }
);

both!(
    async fn a_refused_budget_passes_through_and_changes_nothing(backend: Backend) {
        let fx = fixture(backend).await;
        let caller = signed_up(&fx, "cy@example.com", "right password 1").await;
        let budget = Budget {
            refuse: true,
            ..Budget::default()
        };
        let new = password("new password 22");
        let refused = fx
            .accounts
            .change_password(caller, "right password 1", &new, &budget)
            .await
            .unwrap();
        assert_eq!(refused, Err("refused"));
        let open = Budget::default();
        let still = fx
            .accounts
            .check_password(caller, "right password 1", &open)
            .await
            .unwrap()
            .unwrap();
        assert!(still.is_some(), "the password did not change");
    }
);
