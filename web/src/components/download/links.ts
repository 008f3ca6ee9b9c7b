/** Sign-up that comes back to the download page once the e-mail is confirmed and the visitor signed in. */
export const SIGN_UP_FOR_DOWNLOAD = `/signup?next=${encodeURIComponent("/download")}`;
