import { CheckCircle2, Wrench } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useParams } from "react-router";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api/client";
import { SetupLinkGone, type SetupStep } from "../../../lib/api/setupLinks";
import { useFinish, useSetupView } from "../api/setup";
import { SetupDomain } from "./SetupDomain";
import { errorMessage, Problem, StepCard } from "./SetupParts";
import { SetupScim } from "./SetupScim";
import { SetupSso } from "./SetupSso";

export const GONE = "This setup link has expired or was revoked. Ask the team owner for a new one.";
export const FINISHED = "This setup link was used to finish setup. Ask the team owner for a new one if something is left.";
export const UNKNOWN = "There is no such setup link. Check that the whole link was copied, or ask the team owner for a new one.";

const TITLES: Record<SetupStep, string> = {
  domain: "Verify the company domain",
  sso: "Connect single sign-on",
  scim: "Create a SCIM token",
};
const DONE_WORDS: Record<SetupStep, string> = {
  domain: "the company domain verified",
  sso: "single sign-on connected",
  scim: "a SCIM token created",
};

function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-12">
      <div>
        <Wrench aria-hidden className="h-10 w-10 text-blue-600" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      </div>
      {children}
    </div>
  );
}

function Unusable({ error }: { error: unknown }) {
  if (error instanceof SetupLinkGone)
    return (
      <Page title="This setup link no longer works">
        <p className="text-slate-700">{error.reason === "finished" ? FINISHED : GONE}</p>
      </Page>
    );
  if (error instanceof ApiError && error.status === 404)
    return (
      <Page title="Setup link not found">
        <p className="text-slate-700">{UNKNOWN}</p>
      </Page>
    );
  return (
    <Page title="Setup link">
      <Problem>{errorMessage(error)}</Problem>
    </Page>
  );
}

function FinishButton({ onFinish, busy }: { onFinish: () => void; busy: boolean }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button disabled={busy} aria-busy={busy} onClick={() => setConfirming(true)}>
        {busy ? "Finishing..." : "Finish"}
      </Button>
      <Modal open={confirming} onClose={() => setConfirming(false)} title="Finish setup?">
        <p className="text-slate-700">
          The link stops working and the team owner is mailed what was done. Anything left needs a new link from them.
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            onClick={() => {
              setConfirming(false);
              onFinish();
            }}
          >
            Finish setup
          </Button>
        </div>
      </Modal>
    </>
  );
}

/**
 * `/setup/:token`: the guided page a setup link opens, no account needed: the steps the owner allowed,
 * in order (domain, single sign-on, SCIM), then "Finish". A gone link says why and whom to ask.
 */
export function SetupPage() {
  const { token = "" } = useParams();
  const view = useSetupView(token);
  const finish = useFinish(token);

  if (finish.isSuccess) {
    const done = finish.data.done.map((s) => DONE_WORDS[s]);
    return (
      <Page title="Setup is finished">
        <p role="status" className="flex items-start gap-2 text-slate-700">
          <CheckCircle2 aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
          {done.length > 0
            ? `Thank you. The team owner has been mailed what was done: ${done.join(", ")}.`
            : "The team owner has been told nothing was set up through the link."}{" "}
          You can close this page.
        </p>
      </Page>
    );
  }
  if (view.isPending)
    return (
      <Page title="Setup link">
        <p role="status" className="flex items-center gap-2 text-slate-600">
          <Spinner /> Loading...
        </p>
      </Page>
    );
  if (view.isError) return <Unusable error={view.error} />;
  // Finishing a link that went meanwhile says why it no longer works.
  if (finish.error instanceof SetupLinkGone) return <Unusable error={finish.error} />;

  const data = view.data;
  const step = (s: SetupStep, i: number) => (
    <StepCard key={s} id={`setup-${s}`} number={i + 1} title={TITLES[s]} done={data.done.includes(s)}>
      {s === "domain" && <SetupDomain token={token} domains={data.domains} />}
      {s === "sso" && <SetupSso token={token} view={data} />}
      {s === "scim" && <SetupScim token={token} scim={data.scim} />}
    </StepCard>
  );
  return (
    <Page title={`Set up ${data.team_name} on Closewise`}>
      <p className="text-slate-700">
        The team owner asked you to set these up; no Closewise account is needed. This link works until{" "}
        {new Date(data.expires_at).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })}. Nothing done here can
        change billing, members or other settings.
      </p>
      {data.steps.map(step)}
      <section aria-label="Finish" className="space-y-3">
        <p className="text-slate-700">When you are done, finish: the team owner is told what was set up.</p>
        {finish.isError && <Problem>{errorMessage(finish.error)}</Problem>}
        <FinishButton busy={finish.isPending} onFinish={() => finish.mutate()} />
      </section>
    </Page>
  );
}
