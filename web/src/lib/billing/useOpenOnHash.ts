import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";

/**
 * Runs `open` once when the page was reached at `hash` (a mail's "Update the card" link:
 * `/dashboard#update-card`) and `ready` holds; the hash is dropped first, so coming back from the
 * portal does not open it again.
 */
export function useOpenOnHash(hash: string, ready: boolean, open: () => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !ready || location.hash !== hash) return;
    done.current = true;
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    open();
  }, [hash, ready, open, location, navigate]);
}
