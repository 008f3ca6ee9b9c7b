import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { setAuthBridge } from "../api/client";
import { AuthManager, LOADING, type AuthState } from "./session";

const AuthContext = createContext<AuthManager | null>(null);

export function AuthProvider({ children, manager }: { children: ReactNode; manager?: AuthManager }) {
  const [auth] = useState(() => manager ?? new AuthManager());
  useEffect(() => {
    setAuthBridge(auth);
    void auth.start();
    return () => {
      auth.stop();
      setAuthBridge(null);
    };
  }, [auth]);
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}

export function useAuthManager(): AuthManager {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error("useAuth must be used inside <AuthProvider>");
  return auth;
}

const serverSnapshot = () => LOADING;

/** The current auth state; "loading" during prerendering and until the session is restored. */
export function useAuth(): AuthState & { manager: AuthManager } {
  const manager = useAuthManager();
  const state = useSyncExternalStore(manager.subscribe, manager.getSnapshot, serverSnapshot);
  return { ...state, manager };
}

const noSubscription = () => () => {};

/**
 * The auth status for shared widgets that may render without the provider (the download chooser on
 * its own): "loading" then, so they show nothing that depends on who is signed in.
 */
export function useAuthStatus(): AuthState["status"] {
  const manager = useContext(AuthContext);
  const state = useSyncExternalStore(
    manager?.subscribe ?? noSubscription,
    manager?.getSnapshot ?? serverSnapshot,
    serverSnapshot,
  );
  return state.status;
}
