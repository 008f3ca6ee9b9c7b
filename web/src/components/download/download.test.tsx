import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import * as analytics from "../../lib/analytics";
import { DownloadButton } from "./DownloadButton";
import { DownloadModal } from "./DownloadModal";

describe("Download modal", () => {
  it("opens from the download button with both Mac versions, Windows coming soon, and returns focus on Escape", async () => {
    const user = userEvent.setup();
    render(<DownloadButton />);
    const button = screen.getByRole("button", { name: "Download for Mac" });
    await user.click(button);
    const dialog = await screen.findByRole("dialog", { name: "Choose Your Mac Version" });
    const arm = within(dialog).getByRole("link", { name: /Apple Silicon/ });
    const intel = within(dialog).getByRole("link", { name: /Intel/ });
    expect(arm).toHaveTextContent("M1, M2, M3 (2020 and newer)");
    expect(intel).toHaveTextContent("2019 and older");
    expect(arm).toHaveAttribute(
      "href",
      "https://github.com/closewise/closewise-desktop/releases/download/v1.0.0/Closewise-1.0.0-arm64.dmg",
    );
    expect(intel).toHaveAttribute(
      "href",
      "https://github.com/closewise/closewise-desktop/releases/download/v1.0.0/Closewise-1.0.0-x64.dmg",
    );
    for (const link of [arm, intel]) {
      expect(link).toHaveAttribute("target", "_blank");
      expect(link).toHaveAttribute("rel", "noopener noreferrer");
    }
    expect(within(dialog).getByText("Windows")).toBeInTheDocument();
    expect(within(dialog).getByText("Coming soon")).toBeInTheDocument();
    // The modal's code loads lazily; its focus effect runs once it has mounted.
    await waitFor(() => expect(arm).toHaveFocus());

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await waitFor(() => expect(button).toHaveFocus());
  });

  it("keeps Tab inside the dialog", async () => {
    const user = userEvent.setup();
    render(<DownloadModal open onClose={() => {}} detect={async () => null} />);
    const dialog = screen.getByRole("dialog");
    for (let i = 0; i < 6; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it("explains how to tell the chip under Check here", async () => {
    const user = userEvent.setup();
    render(<DownloadModal open onClose={() => {}} detect={async () => null} />);
    await user.click(screen.getByRole("button", { name: "Check here" }));
    expect(screen.getByText(/About This Mac/)).toBeInTheDocument();
  });

  it("records app_download_started with the chip and closes", async () => {
    const track = vi.spyOn(analytics, "track");
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<DownloadModal open onClose={onClose} detect={async () => null} />);
    const intel = screen.getByRole("link", { name: /Intel/ });
    intel.addEventListener("click", (e) => e.preventDefault());
    await user.click(intel);
    expect(track).toHaveBeenCalledWith("app_download_started", { arch: "x64", version: "v1.0.0" });
    expect(onClose).toHaveBeenCalled();
  });

  it("preselects the chip the browser reports", async () => {
    render(<DownloadModal open onClose={() => {}} detect={async () => "arm64"} />);
    expect(await screen.findByText("Recommended for this Mac")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Apple Silicon/ })).toHaveAccessibleDescription("Recommended for this Mac");
  });

  it("moves focus to the likely chip when the browser can tell", async () => {
    render(<DownloadModal open onClose={() => {}} detect={async () => "x64"} />);
    expect(await screen.findByText("Recommended for this Mac")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("link", { name: /Intel/ })).toHaveFocus());
  });
});
