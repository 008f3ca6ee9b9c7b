import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";
import { marketingRoutes } from "./features/marketing/routes";

import clientRoutePaths from "./clientRoutes.json";

/** Client-only account routes (served the app shell); scripts/postbuild.mjs lists them in dist/routes.json. */
export { clientRoutePaths };

export default [
  ...marketingRoutes.map((r) => (r.path === "" ? index(r.file) : route(r.path, r.file))),
  route("pricing", "app/pricing.tsx"),
  route("privacy", "app/privacy.tsx"),
  route("terms", "app/terms.tsx"),
  route("support", "app/support.tsx"),
  route("download", "app/download.tsx"),
  route("signin", "app/signin.tsx"),
  route("signup", "app/signup.tsx"),
  route("verify", "app/verify.tsx"),
  route("forgot-password", "app/forgot-password.tsx"),
  route("reset-password", "app/reset-password.tsx"),
  // The account area: one layout whose loader guards and prefetches (app/account.tsx).
  layout("app/account.tsx", [
    route("dashboard", "app/dashboard.tsx"),
    route("settings", "app/settings.tsx"),
    route("success", "app/success.tsx"),
    route("authorize", "app/authorize.tsx"),
    route("activate", "app/activate.tsx"),
    // `/team` is Members; `/team/<section>` the console's other sections (features/team/components/teamSections.ts).
    route("team/:section?", "app/team.tsx"),
  ]),
  route("invite", "app/invite.tsx"),
  route("sso/confirm", "app/sso-confirm.tsx"),
  // The setup link for IT: its page (the API serves `/setup/{token}` the shell, 410 once gone) and the
  // way back from its test sign-in.
  route("setup/:token", "app/setup.tsx"),
  route("setup", "app/setup-return.tsx"),
  route("*", "app/not-found.tsx"),
] satisfies RouteConfig;
