//! "Sign in with a passkey" (a discoverable passkey, no password) and the same offered in the e-mail
//! field's autofill (conditional mediation) while the sign-in page is open. A failure is the form's to
//! say (`onError`); the autofill's own start failing for want of an answer (offline) says nothing: the
//! page has asked nothing of the visitor yet.

import { useCallback, useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useHydrated } from "../../../components/ui/useHydrated";
import { failureMessage, NetworkError } from "../../../lib/api/client";
import { passkeyChallenge, signInWithPasskey } from "../../../lib/api/mfa";
import { track } from "../../../lib/analytics";
import { useAuthManager } from "../../../lib/auth/AuthProvider";
import { autofillSupported, cancelled, getPasskey, passkeysSupported } from "../../../lib/webauthn";

export function usePasskeySignIn({
  enabled,
  onSignedIn,
  onError,
}: {
  enabled: boolean;
  onSignedIn: () => void;
  onError: (message: string) => void;
}) {
  const auth = useAuthManager();
  const autofill = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const supported = hydrated && passkeysSupported();
  const signedIn = useRef(onSignedIn);
  const failed = useRef(onError);
  useEffect(() => {
    signedIn.current = onSignedIn;
    failed.current = onError;
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
        if (controller.signal.aborted || cancelled(error) || error instanceof NetworkError) return;
        failed.current(failureMessage(error));
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
      if (!cancelled(error)) failed.current(failureMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return { supported, busy, signIn, stopAutofill };
}
