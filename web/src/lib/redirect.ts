/** Leaves the app for another site (Stripe's pages); one place so tests can observe it. */
export const redirect = { to: (url: string) => window.location.assign(url) };
