//! The password policy's minimum length: the one place the web states it (the sign-up, new-password
//! and settings forms, and the MSW handlers, read it from here). The server decides
//! (`closewise_domain::password::Password::MIN_LEN`, which `422 weak_password` enforces with the
//! same message); the forms only spare a round trip.

export const MIN_PASSWORD_LENGTH = 6;
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
