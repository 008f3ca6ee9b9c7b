import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button, buttonStyles } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import { lookupDeviceCode } from "../../../lib/api/desktop";
import { useDecideDeviceCode } from "../../../lib/api/mutations";
import type { DeviceCodeRequest, User } from "../../../lib/api/types";
import { absoluteTime, platformName, relativeTime } from "../../../lib/devices";
import { formatUserCode, isCompleteUserCode } from "../userCode";
import { DesktopCard, DeviceDetails, Problem } from "./DesktopCard";
import { OtherNetworkWarning, requestedFromText } from "./RequestOrigin";

const TITLE = "Activate the Closewise app";
export const APPROVED_TEXT = "Your device is signed in. You can return to the Closewise app.";
export const DENIED_TEXT = "You denied the sign-in. The device was not signed in to your account.";
const message = (error: unknown) => (error instanceof ApiError ? error.message : "An unexpected error occurred");

type Step =
  | { kind: "enter"; busy: boolean; error: string | null }
  | { kind: "confirm"; request: DeviceCodeRequest; busy: "approve" | "deny" | null; error: string | null }
  | { kind: "done"; status: "approved" | "denied" };

function Requested({ at }: { at: string }) {
  return (
    <time dateTime={at}>
      {relativeTime(at)} ({absoluteTime(at)})
    </time>
  );
}

function Confirm({
  step,
  user,
  onDecide,
  onOtherCode,
}: {
  step: Extract<Step, { kind: "confirm" }>;
  user: User;
  onDecide: (decision: "approve" | "deny") => void;
  onOtherCode: () => void;
}) {
  const { request, busy } = step;
  return (
    <>
      <p className="mb-4 text-slate-700">
        A Closewise app wants to sign in as <strong className="break-all">{user.email}</strong>. Approve only if you started this
        sign-in and the app shows the same code.
      </p>
      <DeviceDetails
        rows={[
          ["Code", request.user_code],
          ["Name (chosen by the device)", request.device_name],
          ["Platform", platformName(request.platform)],
          ["Requested from", requestedFromText(request.requested_from ?? null)],
          ["Requested", <Requested key="at" at={request.requested_at} />],
        ]}
      />
      {!request.same_network && <OtherNetworkWarning address={request.requested_from ?? null} />}
      {step.error && (
        <div className="mt-4">
          <Problem>{step.error}</Problem>
        </div>
      )}
      <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
        <Button className="flex-1" disabled={busy !== null} onClick={() => onDecide("approve")}>
          {busy === "approve" ? "Approving..." : "Approve"}
        </Button>
        <Button variant="secondary" className="flex-1" disabled={busy !== null} onClick={() => onDecide("deny")}>
          {busy === "deny" ? "Denying..." : "Deny"}
        </Button>
      </div>
      <button
        type="button"
        onClick={onOtherCode}
        className="mt-4 text-sm font-medium text-blue-700 underline hover:text-blue-900"
      >
        Enter a different code
      </button>
    </>
  );
}

/** `/activate`: the signed-in user enters the code a desktop app shows, checks the device and lets it in. */
export function Activate({ user }: { user: User }) {
  const [search] = useSearchParams();
  const [initial] = useState(() => formatUserCode(search.get("user_code") ?? ""));
  const [code, setCode] = useState(initial);
  const [step, setStep] = useState<Step>({ kind: "enter", busy: isCompleteUserCode(initial), error: null });
  const started = useRef(false);
  const password = useConfirmPassword();
  // Approving needs the password entered on this session lately; the dialog asks for it.
  const decideCode = useDecideDeviceCode(password.guard);

  async function lookUp(value: string) {
    setStep({ kind: "enter", busy: true, error: null });
    try {
      setStep({ kind: "confirm", request: await lookupDeviceCode(value), busy: null, error: null });
    } catch (error) {
      setStep({ kind: "enter", busy: false, error: message(error) });
    }
  }

  // Arriving from the app's link (`?user_code=`): look it up at once, once (lookups count against a limit).
  const lookUpOnArrival = useEffectEvent(() => void lookUp(initial));
  useEffect(() => {
    if (started.current || !isCompleteUserCode(initial)) return;
    started.current = true;
    lookUpOnArrival();
  }, [initial]);

  async function decide(request: DeviceCodeRequest, decision: "approve" | "deny") {
    setStep({ kind: "confirm", request, busy: decision, error: null });
    try {
      const { status } = await decideCode.mutateAsync({ userCode: request.user_code, decision });
      setStep({ kind: "done", status });
    } catch (error) {
      // The code went bad meanwhile (expired, used, unknown): back to the field with the reason.
      if (error instanceof ApiError && [400, 404, 409].includes(error.status))
        setStep({ kind: "enter", busy: false, error: error.message });
      else setStep({ kind: "confirm", request, busy: null, error: message(error) });
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!isCompleteUserCode(code)) setStep({ kind: "enter", busy: false, error: "Enter the 8-character code shown in the app." });
    else void lookUp(code);
  }

  if (step.kind === "done")
    return (
      <DesktopCard title={TITLE} step={step.kind}>
        <p role="status" className="text-slate-700">
          {step.status === "approved" ? APPROVED_TEXT : DENIED_TEXT}
        </p>
        <Link to="/dashboard" className={buttonStyles("secondary", "mt-6 w-full")}>
          Go to Dashboard
        </Link>
      </DesktopCard>
    );
  if (step.kind === "confirm")
    return (
      <DesktopCard title={TITLE} step={step.kind}>
        <Confirm
          step={step}
          user={user}
          onDecide={(decision) => void decide(step.request, decision)}
          onOtherCode={() => setStep({ kind: "enter", busy: false, error: null })}
        />
        {password.dialog}
      </DesktopCard>
    );
  return (
    <DesktopCard title={TITLE} step={step.kind}>
      <p className="mb-4 text-slate-700">Enter the code shown in the Closewise app to sign it in to your account.</p>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <TextField
          label="Code"
          name="user_code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="XXXX-XXXX"
          className="[&_input]:font-mono [&_input]:text-lg [&_input]:tracking-widest"
          value={code}
          error={step.error}
          onChange={(e) => setCode(formatUserCode(e.target.value))}
        />
        <Button type="submit" className="w-full" disabled={step.busy} aria-busy={step.busy}>
          {step.busy ? "Looking up..." : "Look up"}
        </Button>
      </form>
    </DesktopCard>
  );
}
