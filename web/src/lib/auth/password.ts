//! The password rule: the one place the web states it (the sign-up, new-password and settings forms
//! check with `checkNewPassword`, and the MSW handlers read the length from here). The server decides
//! (`closewise_domain::password::Password::MIN_LEN`, which `422 weak_password` enforces with the
//! same message); the forms only spare a round trip.

export const MIN_PASSWORD_LENGTH = 6;
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match";

/** A new password and its confirmation, in the spec's order: matching first, then the length. */
export function checkNewPassword(password: string, confirm: string): { password?: string; confirm?: string } {
  if (password !== confirm) return { confirm: PASSWORDS_DO_NOT_MATCH };
  if (password.length < MIN_PASSWORD_LENGTH) return { password: PASSWORD_TOO_SHORT };
  return {};
}
