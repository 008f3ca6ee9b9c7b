//! "Sign in with a passkey" (a discoverable passkey, no password) and the same offered in the e-mail
//! field's autofill (conditional mediation) while the sign-in page is open.

import { useCallback, useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useHydrated } from "../../../components/ui/useHydrated";
import { ApiError } from "../../../lib/api/client";
import { passkeyChallenge, signInWithPasskey } from "../../../lib/api/mfa";
import { track } from "../../../lib/analytics";
import { useAuthManager } from "../../../lib/auth/AuthProvider";
import { autofillSupported, cancelled, getPasskey, passkeysSupported } from "../../../lib/webauthn";

export function usePasskeySignIn({ enabled, onSignedIn }: { enabled: boolean; onSignedIn: () => void }) {
  const auth = useAuthManager();
  const autofill = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const supported = hydrated && passkeysSupported();
  const signedIn = useRef(onSignedIn);
  useEffect(() => {
    signedIn.current = onSignedIn;
  });

  const finish = useCallback(
    async (conditional: boolean, signal?: AbortSignal) => {
      const { challenge_id, options } = await passkeyChallenge();
      const credential = await getPasskey(options, { conditional, signal });
      await auth.signInWith(() => signInWithPasskey({ challenge_id, credential }), { mfa: false });
      track("user_signed_in", { method: "passkey" });
      toast.success("Signed in successfully!");
      signedIn.current();
    },
    [auth],
  );

  const stopAutofill = useCallback(() => {
    autofill.current?.abort();
    autofill.current = null;
  }, []);

  // The e-mail field's autofill: one pending request while the page shows the password step.
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void autofillSupported().then((available) => {
      if (!available || !live) return;
      const controller = new AbortController();
      autofill.current = controller;
      finish(true, controller.signal).catch((error: unknown) => {
        if (controller.signal.aborted || cancelled(error)) return;
        toast.error(error instanceof ApiError ? error.message : "An unexpected error occurred");
      });
    });
    return () => {
      live = false;
      stopAutofill();
    };
  }, [enabled, finish, stopAutofill]);

  async function signIn() {
    stopAutofill();
    setBusy(true);
    try {
      await finish(false);
    } catch (error) {
      if (!cancelled(error)) toast.error(error instanceof ApiError ? error.message : "An unexpected error occurred");
    } finally {
      setBusy(false);
    }
  }

  return { supported, busy, signIn, stopAutofill };
}
