import { act, render, screen } from "@testing-library/react";
import toast, { Toaster } from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toasterProps } from "./toast";

afterEach(() => vi.useRealTimers());

describe("Toasts", () => {
  it("sit at the bottom centre", () => {
    expect(toasterProps.position).toBe("bottom-center");
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
