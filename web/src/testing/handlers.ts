//! MSW handlers that follow docs/api.md, backed by the in-memory db, one file per flow under
//! handlers/. Used by Vitest and by `npm run dev:mock`. `routes` is the list the drift test checks
//! against docs/openapi.json.

import { http } from "msw";
import { accountRoutes } from "./handlers/account";
import { billingRoutes } from "./handlers/billing";
import { type MockRoute } from "./handlers/common";
import { desktopRoutes } from "./handlers/desktop";
import { downloadRoutes } from "./handlers/downloads";
import { allTeamRoutes } from "./handlers/team";
import { teamJoinRoutes } from "./handlers/teamJoin";

export { apiError, type MockRoute } from "./handlers/common";

export const routes: MockRoute[] = [
  ...accountRoutes,
  ...billingRoutes,
  ...desktopRoutes,
  ...downloadRoutes,
  ...allTeamRoutes,
  ...teamJoinRoutes,
];

/** OpenAPI's `{id}` is MSW's `:id`. */
export const mswPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

export const handlers = routes.map((route) => http[route.method](`*${mswPath(route.path)}`, route.resolver));
