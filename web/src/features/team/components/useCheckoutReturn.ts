//! Back from the team's Stripe Checkout (`/team?checkout=success&session_id=…`): the server confirms
//! the session with Stripe (the browser never marks anything paid), and the address loses its query so
//! a reload does not confirm again.

import { useEffect, useEffectEvent, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useNavigate, useSearchParams } from "react-router";
import { useConfirmTeamCheckout } from "../api/teamMutations";
import { errorMessage } from "./TeamParts";

export type CheckoutReturn =
  { kind: "none" } | { kind: "confirming" } | { kind: "done" } | { kind: "failed"; message: string; retry: () => void };

export function useCheckoutReturn(): CheckoutReturn {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const confirmCheckout = useConfirmTeamCheckout();
  const [sessionId] = useState(() => (params.get("checkout") === "success" ? params.get("session_id") : null));
  const [state, setState] = useState<"none" | "confirming" | "done" | { message: string }>(sessionId ? "confirming" : "none");
  const started = useRef(false);

  async function confirm(id: string) {
    setState("confirming");
    try {
      await confirmCheckout.mutateAsync(id);
      toast.success("The team's subscription is active");
      setState("done");
    } catch (error) {
      setState({ message: errorMessage(error) });
    }
  }

  const onArrival = useEffectEvent((id: string) => {
    void navigate("/team", { replace: true });
    void confirm(id);
  });
  useEffect(() => {
    if (!sessionId || started.current) return;
    started.current = true;
    onArrival(sessionId);
  }, [sessionId]);

  if (typeof state === "object")
    return { kind: "failed", message: state.message, retry: () => sessionId && void confirm(sessionId) };
  return { kind: state };
}
