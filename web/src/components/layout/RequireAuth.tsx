import { useEffect, useState, type ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useAuth } from "../../lib/auth/AuthProvider";

/**
 * Signed-out visitors go to /signin and come back here after signing in. Someone who signs out
 * while on the page (here or in another tab) goes home instead. The way back is `next`, as on every
 * link into sign-in and sign-up (sign-in still reads the older `redirect` of bookmarked links).
 */
export function RequireAuth({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { status, manager } = useAuth();
  const location = useLocation();
  const [wasSignedIn, setWasSignedIn] = useState(false);
  const askServer = status === "signedOut" && manager.mayHaveSession();
  useEffect(() => {
    if (askServer) void manager.ensureRestored();
  }, [askServer, manager]);
  // Remembered from an earlier render, React's way (state set while rendering, not a ref read in render).
  if (status === "signedIn" && !wasSignedIn) setWasSignedIn(true);
  if (status === "loading" || askServer) return <>{fallback}</>;
  if (status === "signedOut") {
    if (wasSignedIn) return <Navigate to="/" replace />;
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={`/signin?next=${encodeURIComponent(back)}`} replace />;
  }
  return <>{children}</>;
}
