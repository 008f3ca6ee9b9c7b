import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { SETUP_TOKEN_KEY } from "../api/setup";

/**
 * `/setup`: where the identity provider sends the browser back after the test sign-in
 * (`?sso_test=…`): back to the setup link's page this browser kept (`cw_setup_token`), the result on.
 */
export function SetupReturn() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const token = typeof window === "undefined" ? null : window.sessionStorage.getItem(SETUP_TOKEN_KEY);
  useEffect(() => {
    if (token) void navigate(`/setup/${encodeURIComponent(token)}${search}`, { replace: true });
  }, [token, search, navigate]);
  if (token) return null;
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-12">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Back from the test sign-in</h1>
      <p className="mt-4 text-slate-700">
        This browser no longer knows which setup link you came from. Open the setup link again to see the result.
      </p>
    </div>
  );
}
