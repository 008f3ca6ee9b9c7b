import { useQuery } from "@tanstack/react-query";
import { Copy, KeyRound } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { getScimTokens } from "../../../lib/api/team";
import type { ScimToken } from "../../../lib/api/types";
import { scimTokensKey, useScimTokenAction } from "../api/mutations";
import { errorMessage, Problem, Section, shortDate } from "./TeamParts";

const HOW_IT_WORKS =
  "Your identity provider adds and removes people through SCIM 2.0 with a token. Removing someone there ends every session they have, the desktop app's included.";

function TokenRow({ token, onRevoke, busy }: { token: ScimToken; onRevoke: () => void; busy: boolean }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="text-sm text-slate-700">
        <p className="font-mono text-slate-900">{token.id.slice(0, 8)}</p>
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

/** The owner's SCIM tokens on `/team` → Security: create one (shown once, with copy), list, revoke. */
export function ScimTokens() {
  const { user } = useAuth();
  const tokens = useQuery({ queryKey: scimTokensKey(user?.id ?? ""), queryFn: async () => (await getScimTokens()).tokens });
  const password = useConfirmPassword();
  const change = useScimTokenAction(password.guard);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = !change.isPending ? null : change.variables.action === "create" ? "create" : change.variables.id;

  async function create() {
    setError(null);
    try {
      setSecret(await change.mutateAsync({ action: "create" }));
    } catch (e) {
      setError(errorMessage(e));
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
  async function copy() {
    if (!secret) return;
    await navigator.clipboard.writeText(secret);
    toast.success("Token copied");
  }

  return (
    <Section id="team-scim" title="Security: SCIM tokens" icon={<KeyRound aria-hidden className="h-5 w-5" />}>
      <p className="mt-2 text-slate-700">{HOW_IT_WORKS}</p>
      {password.dialog}
      {secret && (
        <div role="status" className="mt-4 space-y-2 rounded-xl border border-amber-200 bg-amber-50 p-4">
          <p className="font-medium text-amber-900">Copy this token now: it is not shown again.</p>
          <code className="block break-all rounded bg-white p-2 text-sm">{secret}</code>
          <Button variant="secondary" onClick={() => void copy()}>
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
      <Button className="mt-4" disabled={busy === "create"} aria-busy={busy === "create"} onClick={() => void create()}>
        {busy === "create" ? "Creating..." : "Create SCIM token"}
      </Button>
    </Section>
  );
}
