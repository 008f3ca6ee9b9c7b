import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { REAUTHENTICATION_REQUIRED, useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button, buttonStyles } from "../../../components/ui/Button";
import { ApiError } from "../../../lib/api/client";
import { authorizeParams, checkAuthorize } from "../../../lib/api/desktop";
import { useDecideAuthorize } from "../../../lib/api/mutations";
import type { AuthorizeCheck, AuthorizeDecision, AuthorizeParams, User } from "../../../lib/api/types";
import { platformName } from "../../../lib/devices";
import { redirect } from "../../../lib/redirect";
import { DesktopCard, DeviceDetails, Pending, Problem } from "./DesktopCard";

const UNEXPECTED = "An unexpected error occurred";
const message = (error: unknown) => (error instanceof ApiError ? error.message : UNEXPECTED);

/** The app's loopback callback, with the code or the refusal in its query: nowhere else. */
function returnsToApp(redirectTo: string, redirectUri: string) {
  return redirectTo.startsWith(`${redirectUri}?`);
}

type Step =
  | { kind: "asking"; busy: AuthorizeDecision | null; error: string | null }
  | { kind: "leaving"; decision: AuthorizeDecision }
  | { kind: "refused"; message: string };

function Consent({ check, params, user }: { check: AuthorizeCheck; params: Partial<AuthorizeParams>; user: User }) {
  const [step, setStep] = useState<Step>({ kind: "asking", busy: null, error: null });
  const password = useConfirmPassword();
  // Allowing needs the password entered on this session lately; the dialog asks for it.
  const decideRequest = useDecideAuthorize(password.guard);

  async function decide(decision: AuthorizeDecision) {
    setStep({ kind: "asking", busy: decision, error: null });
    try {
      const { redirect_to } = await decideRequest.mutateAsync({ params, decision });
      if (!returnsToApp(redirect_to, check.redirect_uri)) {
        setStep({ kind: "refused", message: UNEXPECTED });
        return;
      }
      setStep({ kind: "leaving", decision });
      redirect.to(redirect_to);
    } catch (error) {
      // The API refused the request or the account (400, 403): asking again cannot help. The password
      // not confirmed (the dialog cancelled) can: the buttons stay.
      if (error instanceof ApiError && (error.status === 400 || error.status === 403) && error.code !== REAUTHENTICATION_REQUIRED)
        setStep({ kind: "refused", message: error.message });
      else setStep({ kind: "asking", busy: null, error: message(error) });
    }
  }

  const title = `${check.client_name} wants to sign in to your account`;
  if (step.kind === "refused")
    return (
      <DesktopCard title={title} step={step.kind}>
        <Problem>{step.message}</Problem>
        <Link to="/dashboard" className={buttonStyles("secondary", "mt-6 w-full")}>
          Go to Dashboard
        </Link>
      </DesktopCard>
    );
  if (step.kind === "leaving")
    return (
      <DesktopCard title={title} step={step.kind}>
        <p role="status" className="text-slate-700">
          {step.decision === "allow"
            ? "Returning you to the Closewise app. You can close this tab once the app says you are signed in."
            : "Sign-in cancelled. You can close this tab."}
        </p>
      </DesktopCard>
    );
  return (
    <DesktopCard title={title} step={step.kind}>
      <p className="mb-4 text-slate-700">
        It will be signed in as <strong className="break-all">{user.email}</strong> and can see your plan and call usage.
      </p>
      <DeviceDetails
        rows={[
          ["Name (chosen by the device)", check.device_name ?? "Not named"],
          ["Platform", platformName(check.platform)],
          ["Requested from", `${check.requested_from} (this browser)`],
        ]}
      />
      {step.error && (
        <div className="mt-4">
          <Problem>{step.error}</Problem>
        </div>
      )}
      <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
        <Button className="flex-1" disabled={step.busy !== null} onClick={() => void decide("allow")}>
          {step.busy === "allow" ? "Continuing..." : "Continue"}
        </Button>
        <Button variant="secondary" className="flex-1" disabled={step.busy !== null} onClick={() => void decide("deny")}>
          {step.busy === "deny" ? "Cancelling..." : "Cancel"}
        </Button>
      </div>
      {password.dialog}
    </DesktopCard>
  );
}

/** `/authorize`: the desktop app's browser sign-in asks the signed-in user to let it in. */
export function Authorize({ user }: { user: User }) {
  const [search] = useSearchParams();
  const query = search.toString();
  const params = useMemo(() => authorizeParams(new URLSearchParams(query)), [query]);
  const check = useQuery({
    queryKey: ["authorize", query],
    queryFn: () => checkAuthorize(params),
    retry: false,
    staleTime: Infinity,
  });

  if (check.isPending)
    return (
      <DesktopCard title="Sign in to the Closewise app">
        <Pending text="Checking the sign-in request..." />
      </DesktopCard>
    );
  if (check.isError)
    return (
      <DesktopCard title="This sign-in link cannot be used">
        <Problem>{message(check.error)}</Problem>
        <Link to="/dashboard" className={buttonStyles("secondary", "mt-6 w-full")}>
          Go to Dashboard
        </Link>
      </DesktopCard>
    );
  return <Consent check={check.data} params={params} user={user} />;
}
