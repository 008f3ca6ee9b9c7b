import { Copy } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import type { SetupView } from "../../../lib/api/setupLinks";
import { useCreateScimToken } from "../api/setup";
import { CopyValue, errorMessage, Problem } from "./SetupParts";

/** Step 3: name and create a SCIM token, shown once with copy, beside the SCIM base URL. */
export function SetupScim({ token, scim }: { token: string; scim: SetupView["scim"] }) {
  const create = useCreateScimToken(token);
  const [name, setName] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNameError(null);
    try {
      setSecret((await create.mutateAsync(name)).token);
      setName("");
    } catch (e) {
      if (e instanceof ApiError && e.code === "invalid_token_name") setNameError(e.message);
      else setError(errorMessage(e));
    }
  }
  async function copy(value: string) {
    await navigator.clipboard.writeText(value);
    toast.success("Token copied");
  }

  return (
    <>
      <p className="text-slate-700">
        Your identity provider adds and removes people through SCIM 2.0 with this base URL and a token.
      </p>
      <dl>
        <CopyValue label="SCIM base URL" value={scim.base_url} />
      </dl>
      {secret && (
        <div role="status" className="space-y-2 rounded-xl border border-amber-200 bg-amber-50 p-4">
          <p className="font-medium text-amber-900">Copy this token now: it is not shown again.</p>
          <code className="block break-all rounded bg-white p-2 text-sm">{secret}</code>
          <Button variant="secondary" onClick={() => void copy(secret)}>
            <Copy aria-hidden className="h-4 w-4" /> Copy token
          </Button>
        </div>
      )}
      {scim.tokens.length > 0 && (
        <ul aria-label="SCIM tokens created here" className="text-sm text-slate-700">
          {scim.tokens.map((t) => (
            <li key={t.id}>
              {t.name}, created {new Date(t.created_at).toLocaleString("en-US")}
            </li>
          ))}
        </ul>
      )}
      {error && <Problem>{error}</Problem>}
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-wrap items-end gap-3">
        <TextField
          label="Token name"
          name="setup-scim-name"
          placeholder="Okta production"
          maxLength={60}
          className="w-full max-w-xs"
          value={name}
          error={nameError}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(null);
          }}
        />
        <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
          {create.isPending ? "Creating..." : "Create SCIM token"}
        </Button>
      </form>
    </>
  );
}
