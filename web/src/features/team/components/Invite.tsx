import { MailOpen } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Button, buttonStyles } from "../../../components/ui/Button";
import { config } from "../../../config";
import { ApiError } from "../../../lib/api/client";
import { lookupInvite } from "../../../lib/api/team";
import type { InviteLookup } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { roleWithArticle } from "../../../lib/team/format";
import { TeamLoading } from "./Team";
import { useDecideInvite } from "../api/teamMutations";
import { errorMessage, Problem } from "./TeamParts";

type Lookup = { kind: "loading" } | { kind: "found"; invite: InviteLookup } | { kind: "failed"; message: string };
type Outcome =
  { kind: "idle" } | { kind: "busy"; action: "accept" | "decline" } | { kind: "declined" } | { kind: "error"; error: unknown };

/** Refusals that trying again cannot change: the invitation is gone, expired or spent. */
const FINAL_REFUSALS = ["invite_not_found", "invite_expired", "invite_used"];
const isFinal = (error: unknown) => error instanceof ApiError && FINAL_REFUSALS.includes(error.code);

const NO_TOKEN = "This invitation link is incomplete. Open the link in the e-mail again.";
const linkClass = "font-medium text-blue-700 underline hover:text-blue-900";

function InviteCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <MailOpen aria-hidden className="h-10 w-10 text-blue-600" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

/** Where sign-in and sign-up go, carrying the invited address and the way back here. */
const authLink = (path: string, email: string, back: string) =>
  `${path}?email=${encodeURIComponent(email)}&next=${encodeURIComponent(back)}`;

function AcceptError({ error, onSignOut }: { error: unknown; onSignOut: () => void }) {
  const code = error instanceof ApiError ? error.code : null;
  return (
    <div className="mt-4 space-y-3">
      <Problem>{errorMessage(error)}</Problem>
      {code === "invite_other_address" && (
        <Button variant="secondary" className="w-full" onClick={onSignOut}>
          Sign out and use another account
        </Button>
      )}
      {(code === "already_in_team" || code === "invite_used") && (
        <Link to="/team" className={buttonStyles("secondary", "w-full")}>
          Go to your team
        </Link>
      )}
    </div>
  );
}

/** `/invite?token=…`: the invitation behind the mail's link; accept or decline it once signed in. */
export function Invite() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const back = `/invite?token=${encodeURIComponent(token)}`;
  const auth = useAuth();
  const navigate = useNavigate();
  const decideInvite = useDecideInvite();
  const [lookup, setLookup] = useState<Lookup>(token ? { kind: "loading" } : { kind: "failed", message: NO_TOKEN });
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    lookupInvite(token)
      .then((invite) => setLookup({ kind: "found", invite }))
      .catch((error: unknown) => setLookup({ kind: "failed", message: errorMessage(error) }));
  }, [token]);

  // A session the page has not picked up yet (as the account layout's loader does): ask once before offering sign-in.
  const askServer = auth.status === "signedOut" && auth.manager.mayHaveSession();
  useEffect(() => {
    if (askServer) void auth.manager.ensureRestored();
  }, [askServer, auth.manager]);

  if (lookup.kind === "loading")
    return (
      <InviteCard title="Team invitation">
        <TeamLoading text="Looking up your invitation..." />
      </InviteCard>
    );
  if (lookup.kind === "failed")
    return (
      <InviteCard title="Invitation not available">
        <Problem>{lookup.message}</Problem>
        <Link to={auth.status === "signedIn" ? "/dashboard" : "/"} className={buttonStyles("secondary", "mt-6 w-full")}>
          {auth.status === "signedIn" ? "Go to Dashboard" : "Back to Home"}
        </Link>
      </InviteCard>
    );

  const { invite } = lookup;
  const title = `Join ${invite.team_name} on ${config.productName}`;

  if (outcome.kind === "declined")
    return (
      <InviteCard title="Invitation declined">
        <p role="status" className="text-slate-700">
          You declined the invitation to join {invite.team_name}. The team can invite you again later.
        </p>
        <Link to="/dashboard" className={buttonStyles("secondary", "mt-6 w-full")}>
          Go to Dashboard
        </Link>
      </InviteCard>
    );

  async function decide(action: "accept" | "decline") {
    setOutcome({ kind: "busy", action });
    try {
      const team = await decideInvite.mutateAsync({ token, action });
      if (team) {
        toast.success(`You joined ${team.name}`);
        void navigate("/team");
      } else {
        setOutcome({ kind: "declined" });
      }
    } catch (error) {
      setOutcome({ kind: "error", error });
    }
  }

  async function signOutAndSwitch() {
    try {
      await auth.manager.signOut();
    } catch {
      toast.error("Error signing out");
      return;
    }
    void navigate(authLink("/signin", invite.email, back));
  }

  const intro = (
    <p className="text-slate-700">
      You&apos;re invited to join <strong>{invite.team_name}</strong> as {roleWithArticle(invite.role)}. The invitation is for{" "}
      <strong className="break-all">{invite.email}</strong>.
    </p>
  );

  if (auth.status !== "signedIn") {
    const pending = auth.status === "loading" || askServer;
    return (
      <InviteCard title={title}>
        {intro}
        {pending ? (
          <div className="mt-6">
            <TeamLoading text="Checking your session..." />
          </div>
        ) : (
          <>
            <p className="mt-4 text-slate-700">Sign in with that address to accept, or create an account with it first.</p>
            <div className="mt-6 flex flex-col gap-3">
              <Link to={authLink("/signin", invite.email, back)} className={buttonStyles("primary", "w-full")}>
                Sign In
              </Link>
              <Link to={authLink("/signup", invite.email, back)} className={buttonStyles("secondary", "w-full")}>
                Create account
              </Link>
            </div>
          </>
        )}
      </InviteCard>
    );
  }

  const busy = outcome.kind === "busy" ? outcome.action : null;
  return (
    <InviteCard title={title}>
      {intro}
      <p className="mt-4 text-sm text-slate-600">
        Signed in as <span className="break-all font-medium text-slate-900">{auth.user?.email}</span>.{" "}
        <Link to="/dashboard" className={linkClass}>
          Not now
        </Link>
      </p>
      {outcome.kind === "error" && <AcceptError error={outcome.error} onSignOut={() => void signOutAndSwitch()} />}
      {!(outcome.kind === "error" && isFinal(outcome.error)) && (
        <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
          <Button className="flex-1" disabled={busy !== null} aria-busy={busy === "accept"} onClick={() => void decide("accept")}>
            {busy === "accept" ? "Joining..." : "Accept"}
          </Button>
          <Button
            variant="secondary"
            className="flex-1"
            disabled={busy !== null}
            aria-busy={busy === "decline"}
            onClick={() => void decide("decline")}
          >
            {busy === "decline" ? "Declining..." : "Decline"}
          </Button>
        </div>
      )}
    </InviteCard>
  );
}
