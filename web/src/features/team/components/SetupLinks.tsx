import { Copy, Link2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Choice } from "../../../components/ui/Choice";
import { Modal } from "../../../components/ui/Modal";
import { Spinner } from "../../../components/ui/Spinner";
import { SETUP_STEPS, type SetupLink, type SetupLinkCreated, type SetupStep } from "../../../lib/api/setupLinks";
import { useCreateSetupLink, useRevokeSetupLink, useSetupLinks } from "../api/setupLinks";
import { errorMessage, Problem, Section, shortDate, TEAM_PAGE_HEADING } from "./TeamParts";

export const SETUP_LINKS_ID = "team-setup-links";

const HOW_IT_WORKS =
  "Send your IT admin a link that verifies the company domain, connects single sign-on and creates a SCIM token, with no Closewise account. It works for 24 hours and until they finish; nothing it does can touch billing, members or other settings. You are mailed when they finish.";

/** What the owner ticks, per step. */
export const STEP_CHOICES: Record<SetupStep, string> = {
  domain: "Verify the company domain",
  sso: "Connect single sign-on",
  scim: "Create a SCIM token",
};

/** A step in the list of a link's progress. */
const STEP_NAMES: Record<SetupStep, string> = { domain: "Domain", sso: "Single sign-on", scim: "SCIM token" };

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

function stateOf(link: SetupLink) {
  switch (link.state) {
    case "open":
      return `Open until ${when(link.expires_at)}`;
    case "finished":
      return `Finished${link.finished_at ? ` ${shortDate(link.finished_at)}` : ""}`;
    case "revoked":
      return `Revoked${link.revoked_at ? ` ${shortDate(link.revoked_at)}` : ""}`;
    case "expired":
      return `Expired ${shortDate(link.expires_at)}`;
  }
}

function CreatedLink({ link }: { link: SetupLinkCreated }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(link.url);
      toast.success("Setup link copied");
    } catch {
      toast.error("Could not copy; select the text instead");
    }
  }
  return (
    <div role="status" className="mt-4 space-y-2 rounded-xl border border-amber-200 bg-amber-50 p-4">
      <p className="font-medium text-amber-900">Copy this link now: it is not shown again.</p>
      <code className="block break-all rounded bg-white p-2 text-sm">{link.url}</code>
      <p className="text-sm text-amber-900">It works until {when(link.expires_at)} and until your IT admin finishes.</p>
      <Button variant="secondary" onClick={() => void copy()}>
        <Copy aria-hidden className="h-4 w-4" /> Copy link
      </Button>
    </div>
  );
}

function LinkRow({ link, busy, onRevoke }: { link: SetupLink; busy: boolean; onRevoke: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-3 py-3"
      aria-label={`Setup link created ${when(link.created_at)}`}
    >
      <div className="text-sm text-slate-700">
        <p className="font-medium text-slate-900">{stateOf(link)}</p>
        <p>
          Created {shortDate(link.created_at)} by {link.created_by}
        </p>
        <ul aria-label="Steps" className="mt-1 flex flex-wrap gap-x-4">
          {link.steps.map((step) => (
            <li key={step}>
              {STEP_NAMES[step]}: {link.done.includes(step) ? "done" : "not done"}
            </li>
          ))}
        </ul>
      </div>
      {link.state === "open" && (
        <Button variant="secondary" disabled={busy} aria-busy={busy} onClick={() => setConfirming(true)}>
          Revoke
        </Button>
      )}
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Revoke this setup link?"
        fallbackFocus={[SETUP_LINKS_ID, TEAM_PAGE_HEADING]}
      >
        <p className="text-slate-700">The link stops working at once. What your IT admin already set up stays.</p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={busy}
            aria-busy={busy}
            onClick={() => {
              setConfirming(false);
              onRevoke();
            }}
          >
            Revoke link
          </Button>
        </div>
      </Modal>
    </li>
  );
}

/**
 * The owner's "Setup link for IT" on `/team` → Security: tick the steps, create the link (shown once,
 * with copy and its expiry), follow each link's state and what IT did through it, revoke one.
 */
export function SetupLinks() {
  const links = useSetupLinks();
  const password = useConfirmPassword();
  const create = useCreateSetupLink(password.guard);
  const revoke = useRevokeSetupLink(password.guard);
  const [steps, setSteps] = useState<SetupStep[]>([...SETUP_STEPS]);
  const [created, setCreated] = useState<SetupLinkCreated | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onCreate(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (steps.length === 0) return setError("Choose at least one step for the link.");
    try {
      setCreated(await create.mutateAsync(SETUP_STEPS.filter((s) => steps.includes(s))));
    } catch (e) {
      setError(errorMessage(e));
    }
  }
  async function onRevoke(id: string) {
    setError(null);
    try {
      await revoke.mutateAsync(id);
      toast.success("Setup link revoked");
    } catch (e) {
      setError(errorMessage(e));
    }
  }
  const toggle = (step: SetupStep) => setSteps((now) => (now.includes(step) ? now.filter((s) => s !== step) : [...now, step]));

  return (
    <Section id="team-setup-links" title="Setup link for IT" icon={<Link2 aria-hidden className="h-5 w-5" />}>
      <p className="mt-2 text-slate-700">{HOW_IT_WORKS}</p>
      {password.dialog}
      <form noValidate onSubmit={(e) => void onCreate(e)} className="mt-4 space-y-3">
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">What the link may set up</legend>
          <div className="mt-1 flex flex-wrap gap-x-6">
            {SETUP_STEPS.map((step) => (
              <Choice key={step} label={STEP_CHOICES[step]} checked={steps.includes(step)} onChange={() => toggle(step)} />
            ))}
          </div>
        </fieldset>
        <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
          {create.isPending ? "Creating..." : "Create setup link"}
        </Button>
      </form>
      {created && <CreatedLink link={created} />}
      {error && <Problem className="mt-4">{error}</Problem>}
      {links.isPending && (
        <p role="status" className="mt-4 flex items-center gap-2 text-slate-600">
          <Spinner /> Loading setup links...
        </p>
      )}
      {links.isError && <Problem className="mt-4">Could not load the setup links.</Problem>}
      {links.data && links.data.length > 0 && (
        <ul aria-label="Setup links" className="mt-4 divide-y divide-slate-200">
          {links.data.map((link) => (
            <LinkRow
              key={link.id}
              link={link}
              busy={revoke.isPending && revoke.variables === link.id}
              onRevoke={() => void onRevoke(link.id)}
            />
          ))}
        </ul>
      )}
    </Section>
  );
}
