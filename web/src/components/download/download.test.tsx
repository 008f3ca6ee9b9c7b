import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as analytics from "../../lib/analytics";
import { DownloadButton } from "./DownloadButton";
import { DownloadModal } from "./DownloadModal";
import { forgetDownloads } from "../../lib/api/downloads";
import { DOWNLOADS } from "../../testing/handlers/downloads";

describe("Download modal", () => {
  beforeEach(() => forgetDownloads());

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
    // The addresses are the API's run-time answer (GET /api/downloads), not the build's.
    const arm = await within(dialog).findByRole("link", { name: /Apple Silicon/ });
    const intel = within(dialog).getByRole("link", { name: /Intel/ });
    expect(dialog).toHaveTextContent("Download Closewise v1.0.0 for macOS.");
    expect(arm).toHaveTextContent("M1, M2, M3 (2020 and newer)");
    expect(intel).toHaveTextContent("2019 and older");
    expect(arm).toHaveAttribute("href", DOWNLOADS.mac.arm64);
    expect(intel).toHaveAttribute("href", DOWNLOADS.mac.x64);
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
    const intel = await screen.findByRole("link", { name: /Intel/ });
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

  it("shows another release set at run time without a new build", async () => {
    const load = async () => ({
      version: "v1.2.3",
      mac: { arm64: "https://dl.example.com/a.dmg", x64: "https://dl.example.com/i.dmg" },
    });
    render(<DownloadModal open onClose={() => {}} detect={async () => null} load={load} />);
    const dialog = screen.getByRole("dialog", { name: "Choose Your Mac Version" });
    expect(await within(dialog).findByRole("link", { name: /Apple Silicon/ })).toHaveAttribute(
      "href",
      "https://dl.example.com/a.dmg",
    );
    expect(dialog).toHaveTextContent("Download Closewise v1.2.3 for macOS.");
  });

  it("says clearly that the links could not be loaded, instead of a broken link, when the API does not answer", async () => {
    const load = () => Promise.reject(new Error("offline"));
    render(<DownloadModal open onClose={() => {}} detect={async () => null} load={load} />);
    const dialog = screen.getByRole("dialog", { name: "Choose Your Mac Version" });
    expect(within(dialog).getByRole("status")).toHaveTextContent("Loading the download links…");
    await waitFor(() =>
      expect(within(dialog).getByRole("status")).toHaveTextContent(
        "The download links could not be loaded. Try again in a moment",
      ),
    );
    expect(within(dialog).queryByRole("link", { name: /Apple Silicon|Intel/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole("link", { name: "support@closewise.app" })).toHaveAttribute(
      "href",
      "mailto:support@closewise.app",
    );
  });
});
