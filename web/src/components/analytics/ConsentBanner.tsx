import { useSyncExternalStore } from "react";
import { getConsentState, setAnalyticsConsent, subscribeConsent } from "../../lib/analytics";
import { Button } from "../ui/Button";

/**
 * Asks before any analytics runs. Shown only when analytics is configured and the visitor has not
 * chosen (and sends no privacy signal). Client-only: prerendered pages and hydration render nothing.
 */
export function ConsentBanner() {
  const state = useSyncExternalStore(subscribeConsent, getConsentState, () => "unavailable" as const);
  if (state !== "pending") return null;
  return (
    <section
      aria-label="Analytics consent"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white px-4 py-4 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] sm:px-6"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-700">
          May we count page visits with PostHog to improve Closewise? Nothing is sent or stored unless you accept.
        </p>
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" onClick={() => setAnalyticsConsent("denied")}>
            Decline
          </Button>
          <Button onClick={() => setAnalyticsConsent("granted")}>Accept</Button>
        </div>
      </div>
    </section>
  );
}
