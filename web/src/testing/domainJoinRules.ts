//! The mock API's domain-join rules (`crates/domain/src/teams/domain_join.rs`). The server refuses
//! public mail providers from a vendored list of several thousand domains; the web ships none of
//! it and renders `Team.domain_join_offer`. The mock only needs to know a few providers its tests
//! use, so it knows these and nothing more: a fixture, not the rule.

/** Public mail providers as far as the mock API knows (the server's list has thousands). */
export const MOCK_PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set(["gmail.com", "outlook.fr", "yahoo.fr", "orange.fr"]);

/** A domain as the API stores it: trimmed, no trailing dot, lower-case. */
export const normalizeDomain = (domain: string) => domain.trim().replace(/\.+$/, "").toLowerCase();

/** `teams::mail_domain`: the part after the last `@`, lower-cased, or null. */
export function mailDomain(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 0) return null;
  const domain = normalizeDomain(email.slice(at + 1));
  return domain || null;
}

const isPublic = (domain: string) => MOCK_PUBLIC_MAIL_DOMAINS.has(normalizeDomain(domain));

/** `Team.domain_join_offer` for an owner: their verified address's domain unless a public one. The
 * mock's domain-join handlers accept that domain and nothing else. */
export function domainJoinOffer(ownerEmail: string, ownerVerified: boolean): string | null {
  const d = mailDomain(ownerEmail);
  return d && ownerVerified && !isPublic(d) ? d : null;
}

/** `teams::may_request_join`: a verified address at the team's join domain (not a public one). */
export function mayRequestJoin(email: string, verified: boolean, joinDomain: string | null): boolean {
  const domain = mailDomain(email);
  if (!joinDomain || !domain) return false;
  return verified && !isPublic(domain) && domain === joinDomain.toLowerCase();
}
