//! What a verification link does when an unconfirmed address was signed up for more than once
//! (account pre-hijacking, in both orders).
//!
//! Every sign-up of an unconfirmed address mails a link to that address and records the password
//! it chose. Whoever clicks a link proves they read the mailbox, but nothing tells them which
//! sign-up sent it: when two people signed up (the owner with B, someone else with A), the owner
//! may click the link that carries A. So a link may activate a password only when every sign-up
//! recorded the same one; otherwise it confirms the address and the clicker chooses the password.
//!
//! "The same" cannot be decided by comparing the stored hashes (argon2 salts each one), and
//! checking a new sign-up's password against the pending hashes would cost an extra argon2
//! verification only for addresses already registered, telling them apart by timing. So each
//! sign-up that recorded a password counts as one, a resent link adds none (it carries no
//! password of its own), and two sign-ups always disagree, even when one person typed the same
//! password twice: that person is asked for it once more, which costs little and is always safe.

/// What confirming an unconfirmed address does with the passwords its sign-ups chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    /// One sign-up: the link confirms the address with that sign-up's password, in one click.
    OneClick,
    /// The sign-ups disagree: no pending password becomes the account's; the link confirms the
    /// address and the clicker chooses the password on the page.
    ChoosePassword,
}

/// The rule, from the number of sign-ups that recorded a password since the address was created
/// (an address is confirmed once and never again, so these are all since its confirmation).
pub fn confirmation(signups_with_password: u32) -> Confirmation {
    if signups_with_password <= 1 {
        Confirmation::OneClick
    } else {
        Confirmation::ChoosePassword
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_signup_is_one_click() {
        assert_eq!(confirmation(1), Confirmation::OneClick);
    }

    #[test]
    fn an_address_created_without_a_signup_password_is_one_click() {
        // Accounts made by an operator or before sign-ups were counted carry no second password.
        assert_eq!(confirmation(0), Confirmation::OneClick);
    }

    #[test]
    fn two_or_more_signups_disagree_even_with_the_same_password() {
        for n in [2, 3, 50] {
            assert_eq!(
                confirmation(n),
                Confirmation::ChoosePassword,
                "{n} sign-ups"
            );
        }
    }
}
