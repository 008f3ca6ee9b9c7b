import { useQuery } from "@tanstack/react-query";
import { Copy, KeyRound } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { TextField } from "../../../components/ui/TextField";
import { config } from "../../../config";
import { ApiError } from "../../../lib/api/client";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { getScimTokens } from "../../../lib/api/team";
import type { ScimToken } from "../../../lib/api/types";
import { scimTokensKey, useScimTokenAction } from "../api/mutations";
import { errorMessage, Problem, Section, shortDate } from "./TeamParts";

const HOW_IT_WORKS =
  "Your identity provider adds and removes people through SCIM 2.0 with a token. Removing someone there ends every session they have, the desktop app's included.";

/** Where the identity provider sends its SCIM requests: the API's `/scim/v2`. */
export function scimEndpoint(): string {
  return new URL("/scim/v2", config.apiBase || window.location.origin).toString();
}

async function copyText(text: string, done: string) {
  await navigator.clipboard.writeText(text);
  toast.success(done);
}

function TokenRow({ token, onRevoke, busy }: { token: ScimToken; onRevoke: () => void; busy: boolean }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="text-sm text-slate-700">
        {token.name && <p className="font-medium text-slate-900">{token.name}</p>}
        <p>
          Created {shortDate(token.created_at)} ·{" "}
          {token.last_used_at ? `last used ${shortDate(token.last_used_at)}` : "never used"}
          {token.revoked_at && ` · revoked ${shortDate(token.revoked_at)}`}
        </p>
      </div>
      {!token.revoked_at && (
        <Button variant="secondary" disabled={busy} aria-busy={busy} onClick={onRevoke}>
          {busy ? "Revoking..." : "Revoke"}
        </Button>
      )}
    </li>
  );
}

/**
 * The owner's SCIM tokens on `/team` → Security: the endpoint URL for the identity provider (with copy); name
 * and create a token (shown once, with copy); list them by name (a token made before names by its dates); revoke.
 */
export function ScimTokens() {
  const { user } = useAuth();
  const tokens = useQuery({ queryKey: scimTokensKey(user?.id ?? ""), queryFn: async () => (await getScimTokens()).tokens });
  const password = useConfirmPassword();
  const change = useScimTokenAction(password.guard);
  const [secret, setSecret] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = !change.isPending ? null : change.variables.action === "create" ? "create" : change.variables.id;

  async function create(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNameError(null);
    try {
      setSecret(await change.mutateAsync({ action: "create", name }));
      setName("");
    } catch (e) {
      // The name field owns a refused name; anything else is the section's.
      if (e instanceof ApiError && e.code === "invalid_token_name") setNameError(e.message);
      else setError(errorMessage(e));
    }
  }
  async function revoke(id: string) {
    setError(null);
    try {
      await change.mutateAsync({ action: "revoke", id });
      toast.success("SCIM token revoked");
    } catch (e) {
      setError(errorMessage(e));
    }
  }
  const endpoint = scimEndpoint();

  return (
    <Section id="team-scim" title="Security: SCIM tokens" icon={<KeyRound aria-hidden className="h-5 w-5" />}>
      <p className="mt-2 text-slate-700">{HOW_IT_WORKS}</p>
      <div className="mt-4 space-y-2">
        <p className="text-sm font-medium text-slate-700">SCIM endpoint</p>
        <div className="flex flex-wrap items-center gap-3">
          <code className="break-all rounded bg-slate-50 p-2 text-sm">{endpoint}</code>
          <Button variant="secondary" onClick={() => void copyText(endpoint, "Endpoint URL copied")}>
            <Copy aria-hidden className="h-4 w-4" /> Copy endpoint URL
          </Button>
        </div>
      </div>
      {password.dialog}
      {secret && (
        <div role="status" className="mt-4 space-y-2 rounded-xl border border-amber-200 bg-amber-50 p-4">
          <p className="font-medium text-amber-900">Copy this token now: it is not shown again.</p>
          <code className="block break-all rounded bg-white p-2 text-sm">{secret}</code>
          <Button variant="secondary" onClick={() => void copyText(secret, "Token copied")}>
            <Copy aria-hidden className="h-4 w-4" /> Copy token
          </Button>
        </div>
      )}
      {error && <Problem className="mt-4">{error}</Problem>}
      {tokens.isPending && (
        <p role="status" className="mt-4 flex items-center gap-2 text-slate-600">
          <Spinner /> Loading SCIM tokens...
        </p>
      )}
      {tokens.isError && <Problem className="mt-4">Could not load the SCIM tokens.</Problem>}
      {tokens.data && tokens.data.length > 0 && (
        <ul aria-label="SCIM tokens" className="mt-4 divide-y divide-slate-200">
          {tokens.data.map((t) => (
            <TokenRow key={t.id} token={t} busy={busy === t.id} onRevoke={() => void revoke(t.id)} />
          ))}
        </ul>
      )}
      <form noValidate onSubmit={(e) => void create(e)} className="mt-4 flex flex-wrap items-end gap-3">
        <TextField
          label="Token name"
          placeholder="Okta production"
          maxLength={60}
          className="w-64"
          value={name}
          error={nameError}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(null);
          }}
        />
        <Button type="submit" disabled={busy === "create"} aria-busy={busy === "create"}>
          {busy === "create" ? "Creating..." : "Create SCIM token"}
        </Button>
      </form>
    </Section>
  );
}
