//! What every public page runs at start besides its islands: the page view, analytics (after consent),
//! the consent banner and the toasts (with one the page before carried across its unload, such as a sign-out's).

import { render } from "preact";
import { Toaster } from "react-hot-toast";
import { ConsentBanner } from "../../../components/analytics/ConsentBanner";
import { config } from "../../../config";
import { initAnalytics, trackPageView } from "../../../lib/analytics";
import { showCarriedToast, toasterProps } from "../../../lib/toast";

export function start(): void {
  // As in the app: the first page view is queued before analytics starts, and sent after consent.
  trackPageView(window.location.pathname);
  void initAnalytics({ key: config.analyticsKey, host: config.analyticsHost });
  const host = document.createElement("div");
  document.body.append(host);
  render(
    <>
      <ConsentBanner />
      <Toaster {...toasterProps} />
    </>,
    host,
  );
  showCarriedToast();
}
