import { act, render, screen } from "@testing-library/react";
import toast, { Toaster } from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { showCarriedToast, successAcrossPageLoad, toasterPosition, toasterProps, useDismissStaleToasts } from "./toast";

afterEach(() => vi.useRealTimers());

describe("Toasts", () => {
  it("sit at the bottom centre, but at the top on the sign-in and sign-up pages, clear of their buttons", () => {
    expect(toasterProps.position).toBe("bottom-center");
    expect(toasterPosition("/dashboard")).toBe("bottom-center");
    expect(toasterPosition("/signin")).toBe("top-center");
    expect(toasterPosition("/signup")).toBe("top-center");
  });

  it("leave with the page: errors older than the navigation go, those raised with it and successes stay", async () => {
    vi.useFakeTimers();
    function Page({ path }: { path: string }) {
      useDismissStaleToasts(path);
      return <Toaster {...toasterProps} />;
    }
    const view = render(<Page path="/signin" />);
    act(() => void toast.error("Invalid login credentials"));
    await act(async () => void vi.advanceTimersByTime(1500));
    act(() => {
      toast.error("Please sign in to continue");
      toast.success("Signed in successfully!");
    });
    view.rerender(<Page path="/dashboard" />);
    await act(async () => void vi.advanceTimersByTime(1100));
    expect(screen.queryByText("Invalid login credentials")).not.toBeInTheDocument();
    expect(screen.getByText("Please sign in to continue")).toBeInTheDocument();
    expect(screen.getByText("Signed in successfully!")).toBeInTheDocument();
    act(() => toast.remove());
  });

  it("last 2 s for success and 4 s for errors and others", async () => {
    vi.useFakeTimers();
    render(<Toaster {...toasterProps} />);
    act(() => {
      toast.success("Saved");
      toast.error("Broken");
      toast("Note");
    });
    expect(screen.getByText("Saved")).toBeInTheDocument();
    await act(async () => void vi.advanceTimersByTime(2100));
    // Dismissed toasts leave after their exit animation (1 s in react-hot-toast).
    await act(async () => void vi.advanceTimersByTime(1100));
    expect(screen.queryByText("Saved")).not.toBeInTheDocument();
    expect(screen.getByText("Broken")).toBeInTheDocument();
    expect(screen.getByText("Note")).toBeInTheDocument();
    await act(async () => void vi.advanceTimersByTime(2000));
    await act(async () => void vi.advanceTimersByTime(1100));
    expect(screen.queryByText("Broken")).not.toBeInTheDocument();
    expect(screen.queryByText("Note")).not.toBeInTheDocument();
  });

  it("show at most 20 at once", () => {
    render(<Toaster {...toasterProps} />);
    act(() => {
      for (let i = 0; i < 25; i++) toast(`Toast ${i}`);
    });
    expect(screen.getAllByText(/^Toast \d+$/)).toHaveLength(20);
  });
});

describe("A success toast whose action ends in a page load", () => {
  afterEach(() => sessionStorage.clear());

  it("shows on the next page when the page unloads soon after (a public page's sign-out), once", () => {
    render(<Toaster {...toasterProps} />);
    act(() => successAcrossPageLoad("Signed out successfully"));
    expect(screen.getByText("Signed out successfully")).toBeInTheDocument();
    window.dispatchEvent(new Event("pagehide"));
    act(() => toast.remove());
    act(() => showCarriedToast());
    expect(screen.getByText("Signed out successfully")).toBeInTheDocument();
    act(() => toast.remove());
    act(() => showCarriedToast());
    expect(screen.queryByText("Signed out successfully")).not.toBeInTheDocument();
  });

  it("is not carried when no page load follows (the app navigates in place)", () => {
    vi.useFakeTimers();
    render(<Toaster {...toasterProps} />);
    act(() => successAcrossPageLoad("Signed out successfully"));
    act(() => void vi.advanceTimersByTime(5000));
    window.dispatchEvent(new Event("pagehide"));
    act(() => toast.remove());
    act(() => showCarriedToast());
    expect(screen.queryByText("Signed out successfully")).not.toBeInTheDocument();
  });
});
