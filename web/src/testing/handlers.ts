//! MSW handlers that follow docs/api.md over the mock's state (db.ts), one file per flow under
//! handlers/. Used by Vitest and by `npm run dev:mock`. `routes` is the list the drift test checks
//! against docs/openapi.json; in tests every exchange goes to `exchanges.check` (setup.ts validates it).

import { http, type HttpResponseResolver } from "msw";
import { accountRoutes } from "./handlers/account";
import { billingRoutes } from "./handlers/billing";
import { apiError, type MockRoute } from "./handlers/common";
import { desktopRoutes } from "./handlers/desktop";
import { downloadRoutes } from "./handlers/downloads";
import { invoiceRoutes } from "./handlers/invoices";
import { mfaRoutes } from "./handlers/mfa";
import { ssoRoutes } from "./handlers/sso";
import { teamRoutes } from "./handlers/team";
import { teamInviteRoutes } from "./handlers/teamInvites";
import { teamDomainRoutes } from "./handlers/teamDomains";
import { teamJoinRoutes } from "./handlers/teamJoin";
import { teamListRoutes } from "./handlers/teamLists";
import { teamAdoptionRoutes } from "./handlers/teamAdoption";
import { teamScimRoutes } from "./handlers/teamScim";
import { teamStreamsRoutes } from "./handlers/teamStreams";
import { setupLinkRoutes } from "./handlers/setupLinks";

export { apiError, type MockRoute } from "./handlers/common";

export const routes: MockRoute[] = [
  ...accountRoutes,
  ...billingRoutes,
  ...desktopRoutes,
  ...downloadRoutes,
  ...mfaRoutes,
  ...teamRoutes,
  ...teamInviteRoutes,
  ...teamJoinRoutes,
  ...ssoRoutes,
  ...teamAdoptionRoutes,
  ...teamDomainRoutes,
  ...teamScimRoutes,
  ...teamStreamsRoutes,
  ...teamListRoutes,
  ...invoiceRoutes,
  ...setupLinkRoutes,
];

/** OpenAPI's `{id}` is MSW's `:id`. */
export const mswPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/** Who sees each exchange (copies of the request and the answer); set by the test setup. */
export const exchanges: {
  check?: (method: string, path: string, request: Request, response: Response | undefined) => Promise<void>;
} = {};

/** A route as an MSW handler whose exchanges `exchanges.check` sees. */
export function toHandler(route: MockRoute, options?: { once?: boolean }) {
  const resolver: HttpResponseResolver = async (info) => {
    const request = info.request.clone();
    const response = await route.resolver(info);
    const copy = response instanceof Response ? response.clone() : undefined;
    await exchanges.check?.(route.method, route.path, request, copy);
    return response;
  };
  return http[route.method](`*${mswPath(route.path)}`, resolver, options);
}

export const handlers = routes.map((route) => toHandler(route));

/** A refusal the server decides, as a fixture: `server.use(refuse("post", path, 422, code, message, { once }))`. */
type Method = MockRoute["method"];
export const refuse = (method: Method, path: string, status: number, code: string, message: string, options?: RefuseOptions) =>
  toHandler({ method, path, resolver: () => apiError(status, code, message, options?.headers) }, options);
type RefuseOptions = { once?: boolean; headers?: Record<string, string> };
