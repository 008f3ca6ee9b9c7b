import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import * as analytics from "../../lib/analytics";
import { DownloadButton } from "./DownloadButton";
import { DownloadModal } from "./DownloadModal";
import type * as configModule from "../../config";

// This suite's build has its download addresses set; the last test shows a build without them.
vi.mock("../../config", async (original) => {
  const actual = await original<typeof configModule>();
  const config = { ...actual.config, downloadBaseUrl: "https://dl.example.com/releases" };
  return { ...actual, config };
});

describe("Download modal", () => {
  it("is a link to the download page in the prerendered HTML, so a click before the scripts have run still leads somewhere", () => {
    const html = renderToString(<DownloadButton />);
    expect(html).toMatch(/<a [^>]*href="\/download"[^>]*>.*Download for Mac<\/a>/);
    expect(html).not.toContain("<button");
  });

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
    expect(arm).toHaveAttribute("href", "https://dl.example.com/releases/v1.0.0/Closewise-1.0.0-arm64.dmg");
    expect(intel).toHaveAttribute("href", "https://dl.example.com/releases/v1.0.0/Closewise-1.0.0-x64.dmg");
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

  it("says clearly that the download is not available, instead of a broken link, when the build has no addresses", async () => {
    render(<DownloadModal open onClose={() => {}} detect={async () => null} downloads={null} />);
    const dialog = screen.getByRole("dialog", { name: "Choose Your Mac Version" });
    expect(within(dialog).queryByRole("link", { name: /Apple Silicon|Intel/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole("status")).toHaveTextContent("The download is not available from this site yet.");
    expect(within(dialog).getByRole("link", { name: "support@closewise.app" })).toHaveAttribute(
      "href",
      "mailto:support@closewise.app",
    );
  });
});
