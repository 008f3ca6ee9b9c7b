import { useEffect, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { failureMessage } from "../../../lib/api/client";
import { discoverSso } from "../../../lib/api/sso";
import { AuthCard } from "./AuthCard";
import { useEmailParam, useNextPath, withNext } from "./next";

/** What the callback's `sso_error` means to the person who was sent back here. */
function refusal(code: string, seats: string | null): string {
  switch (code) {
    case "seats_taken":
      return `All ${seats ?? "the"} seats are taken. Ask your team's owner to add seats.`;
    case "email_not_verified":
      return "Your identity provider did not confirm your e-mail address.";
    case "domain_not_verified":
      return "Your e-mail address is not at one of your team's verified domains.";
    case "already_in_team":
      return "You are already in another team. Leave it before signing in with this team's single sign-on.";
    case "deactivated_by_directory":
      return "Your company's directory has deactivated your account for this team. Ask your IT department or your team's owner.";
    case "sso_not_available":
      return "Single sign-on is not set up for this e-mail address.";
    case "invalid_saml_response":
      return "Your identity provider's answer could not be verified. Please try again or contact your team's owner.";
    case "saml_assertion_expired":
      return "Your identity provider's answer has expired. Please sign in again.";
    case "saml_assertion_replayed":
      return "This answer from your identity provider was already used. Please sign in again.";
    case "saml_idp_initiated_off":
      return "Sign-ins started at your identity provider are turned off for this team. Start from the Closewise sign-in page.";
    case "email_claim_missing":
      return "Your identity provider sent no e-mail address in the claim your team's single sign-on reads. Ask your team's owner to check the e-mail claim.";
    case "sso_login_expired":
      return "This sign-in has expired or was already used. Please start again.";
    default:
      return "Your identity provider did not sign you in. Please try again.";
  }
}

/**
 * `/signin?sso=1`: the e-mail first, then on to the company's identity provider. Opened with an address,
 * the page asks at once whether it signs in by SSO and says so under the field when it does not.
 */
export function SsoSignIn() {
  const [params] = useSearchParams();
  const next = useNextPath();
  const opened = useEmailParam();
  const [email, setEmail] = useState(opened);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const failed = params.get("sso_error");

  useEffect(() => {
    if (!opened.trim() || failed) return;
    let live = true;
    discoverSso(opened.trim(), next).then(
      (found) => live && !found.sso && setError(refusal("sso_not_available", null)),
      (e: unknown) => live && setError(failureMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [opened, next, failed]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!email.trim()) return setError("Email is required");
    setBusy(true);
    try {
      const found = await discoverSso(email.trim(), next);
      if (found.sso && found.start_url) return window.location.assign(found.start_url);
      setError(refusal("sso_not_available", null));
    } catch (e) {
      setError(failureMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Sign in with SSO"
      subtitle={
        <Link to={withNext("/signin", next, email)} className="font-medium text-blue-700 underline hover:text-blue-900">
          Sign in with a password instead
        </Link>
      }
    >
      {failed && (
        <p role="alert" className="mb-4 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {refusal(failed, params.get("seats"))}
        </p>
      )}
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
        <TextField
          label="Work email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          error={error}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
          {busy ? "Continuing..." : "Continue with SSO"}
        </Button>
      </form>
    </AuthCard>
  );
}
