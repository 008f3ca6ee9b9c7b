import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getConsentState, initAnalytics, resetAnalyticsForTests } from "../../lib/analytics";
import { ConsentBanner } from "./ConsentBanner";

vi.mock("posthog-js", () => ({ default: { init: vi.fn(), capture: vi.fn(), opt_out_capturing: vi.fn() } }));

afterEach(() => resetAnalyticsForTests());

describe("the analytics consent banner", () => {
  it("is not shown when analytics has no key", async () => {
    render(<ConsentBanner />);
    await act(() => initAnalytics({ key: null, host: "https://ph.example.com" }));
    expect(screen.queryByRole("region", { name: "Analytics consent" })).not.toBeInTheDocument();
  });

  it("asks once analytics is configured, and Accept records the choice and closes it", async () => {
    const user = userEvent.setup();
    render(<ConsentBanner />);
    await act(() => initAnalytics({ key: "phc_test", host: "https://ph.example.com" }));
    const banner = screen.getByRole("region", { name: "Analytics consent" });
    expect(banner).toHaveTextContent("Nothing is sent or stored unless you accept.");
    await user.click(screen.getByRole("button", { name: "Accept" }));
    expect(getConsentState()).toBe("granted");
    expect(window.localStorage.getItem("closewise.analyticsConsent")).toBe("granted");
    expect(screen.queryByRole("region", { name: "Analytics consent" })).not.toBeInTheDocument();
  });

  it("Decline records the choice and closes it", async () => {
    const user = userEvent.setup();
    render(<ConsentBanner />);
    await act(() => initAnalytics({ key: "phc_test", host: "https://ph.example.com" }));
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(getConsentState()).toBe("denied");
    expect(window.localStorage.getItem("closewise.analyticsConsent")).toBe("denied");
    expect(screen.queryByRole("region", { name: "Analytics consent" })).not.toBeInTheDocument();
  });

  it("is not shown to a visitor who declined before", async () => {
    window.localStorage.setItem("closewise.analyticsConsent", "denied");
    render(<ConsentBanner />);
    await act(() => initAnalytics({ key: "phc_test", host: "https://ph.example.com" }));
    expect(screen.queryByRole("region", { name: "Analytics consent" })).not.toBeInTheDocument();
  });
});
