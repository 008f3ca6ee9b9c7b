//! Verified domains (docs/api.md): a record counts as published once its value is in `publishedRecords`.

import type { TeamDomain } from "../../lib/api/types";
import { db } from "../db";
import { type MockRoute, apiError, json, noContent, readBody } from "./common";
import { steppedUp, teamRoute } from "./teamCommon";

export const publishedRecords = new Set<string>();
const domains = new WeakMap<object, TeamDomain[]>();
export const domainsOf = (team: object) => domains.get(team) ?? (domains.set(team, []), domains.get(team)!);
type Answer = (list: TeamDomain[], req: Request, id: unknown) => Response | Promise<Response>;
const owners = (method: MockRoute["method"], path: string, f: Answer, stepUp = false) =>
  teamRoute(method, path, "manage_domains", (caller, r, p) => {
    const answer = () => f(domainsOf(caller.team), r, p.id);
    return stepUp ? steppedUp(answer)(caller, r, p) : answer();
  });
const notFound = () => apiError(404, "domain_not_found", "There is no such domain in your team.");
const txt = () => `closewise-domain-verification=${crypto.randomUUID().replace(/-/g, "")}`;

export const teamDomainRoutes: MockRoute[] = [
  owners("get", "/api/team/domains", (list) => json({ domains: list })),
  owners(
    "post",
    "/api/team/domains",
    async (list, request) => {
      const domain = (await readBody<"TeamDomainBody">(request)).domain.trim().toLowerCase();
      const at = { created_at: db.iso(db.now()), verified_at: null, last_checked_at: null, last_seen_at: null };
      const name = { domain, status: "pending", txt_name: `_closewise-challenge.${domain}`, txt_value: txt() };
      list.push({ id: crypto.randomUUID(), ...name, ...at } as TeamDomain);
      return json(list.at(-1), 201);
    },
    true,
  ),
  owners("post", "/api/team/domains/{id}/verify", (list, _request, id) => {
    const row = list.find((d) => d.id === id);
    if (!row) return notFound();
    else if (!publishedRecords.has(row.txt_value))
      return apiError(409, "domain_not_verified", `We did not find ${row.txt_name}.`);
    return json(Object.assign(row, { status: "verified", verified_at: db.iso(db.now()), last_seen_at: db.iso(db.now()) }));
  }),
  owners(
    "delete",
    "/api/team/domains/{id}",
    (list, _request, id) => {
      const at = list.findIndex((d) => d.id === id);
      return at < 0 ? notFound() : (list.splice(at, 1), noContent());
    },
    true,
  ),
];
