import { Apple, Cpu, HelpCircle, Monitor } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { config } from "../../config";
import { loadDownloads } from "../../lib/api/downloads";
import type { Downloads, MacArch } from "../../lib/api/types";
import { track } from "../../lib/analytics";
import { useAuthStatus } from "../../lib/auth/AuthProvider";
import { Modal } from "../ui/Modal";
import { cn } from "../ui/cn";
import { detectMacChip } from "./detectChip";
import { SIGN_UP_FOR_DOWNLOAD } from "./links";

/** The app signs in with an account: a signed-out visitor is offered one, and brought back here after. */
function AccountHint({ onNavigate }: { onNavigate: () => void }) {
  const status = useAuthStatus();
  if (status !== "signedOut") return null;
  return (
    <p className="mt-4 rounded-lg bg-blue-50 p-3 text-sm text-slate-700">
      The app signs in with your {config.productName} account. New here?{" "}
      <Link to={SIGN_UP_FOR_DOWNLOAD} onClick={onNavigate} className="font-medium text-blue-700 underline hover:text-blue-900">
        Create a free account
      </Link>
    </p>
  );
}

const OPTIONS: { arch: MacArch; title: string; detail: string }[] = [
  { arch: "arm64", title: "Apple Silicon", detail: "M1, M2, M3 (2020 and newer)" },
  { arch: "x64", title: "Intel", detail: "2019 and older" },
];

export function DownloadModal({
  open,
  onClose,
  detect = detectMacChip,
  load = loadDownloads,
}: {
  open: boolean;
  onClose: () => void;
  detect?: () => Promise<MacArch | null>;
  /** The release and its disk images (the API's run-time settings). */
  load?: () => Promise<Downloads>;
}) {
  // undefined: still asking; null: the API did not answer.
  const [release, setRelease] = useState<Downloads | null | undefined>(undefined);
  const downloads = release?.mac;
  const [likely, setLikely] = useState<MacArch | null>(null);
  const [showHelp, setShowHelp] = useState(false);
  const first = useRef<HTMLAnchorElement>(null);
  const links = useRef<Partial<Record<MacArch, HTMLAnchorElement | null>>>({});

  // Where the dialog put focus on opening (it runs its effect first): the links replace it on arrival.
  const focusAtOpen = useRef<Element | null>(null);

  useEffect(() => {
    if (!open) return;
    focusAtOpen.current = document.activeElement;
    let live = true;
    load().then(
      (answer) => live && setRelease(answer),
      () => live && setRelease(null),
    );
    return () => {
      live = false;
    };
  }, [open, load]);

  // Once the links are there, focus goes to the first (or the likely chip), unless the visitor has
  // already moved it.
  useEffect(() => {
    if (!downloads) return;
    const active = document.activeElement;
    if (active === focusAtOpen.current || active === document.body) {
      (likely ? links.current[likely] : first.current)?.focus();
      focusAtOpen.current = null;
    }
  }, [downloads, likely]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void detect().then((arch) => {
      if (!live) return;
      setLikely(arch);
      // Preselect: move focus to the likely chip unless the visitor has already moved it.
      if (arch && document.activeElement === first.current) links.current[arch]?.focus();
    });
    return () => {
      live = false;
    };
  }, [open, detect]);

  return (
    <Modal open={open} onClose={onClose} title="Choose Your Mac Version" initialFocus={first}>
      <p className="mb-4 text-sm text-slate-600">
        Download {config.productName}
        {release ? ` ${release.version}` : ""} for macOS. Installation takes about 2 minutes.
      </p>
      {release === undefined && (
        <p role="status" className="mb-4 text-sm text-slate-600">
          Loading the download links…
        </p>
      )}
      {release === null && (
        <p role="status" className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          The download links could not be loaded. Try again in a moment, or write to{" "}
          <a href={`mailto:${config.supportEmail}`} className="font-medium underline">
            {config.supportEmail}
          </a>{" "}
          and we will send you the app.
        </p>
      )}
      <ul className="space-y-3">
        {(downloads ? OPTIONS : []).map((option, index) => (
          <li key={option.arch}>
            <a
              ref={(node) => {
                links.current[option.arch] = node;
                if (index === 0) first.current = node;
              }}
              href={downloads?.[option.arch]}
              target="_blank"
              rel="noopener noreferrer"
              aria-describedby={likely === option.arch ? `likely-${option.arch}` : undefined}
              onClick={() => {
                track("app_download_started", { arch: option.arch, version: release?.version ?? "" });
                onClose();
              }}
              className={cn(
                "flex items-center gap-4 rounded-xl border-2 p-4 transition hover:border-blue-500 hover:bg-blue-50",
                "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600",
                likely === option.arch ? "border-blue-500 bg-blue-50" : "border-slate-200",
              )}
            >
              {option.arch === "arm64" ? (
                <Apple aria-hidden className="h-8 w-8 shrink-0 text-slate-800" />
              ) : (
                <Cpu aria-hidden className="h-8 w-8 shrink-0 text-slate-800" />
              )}
              <span className="flex-1">
                <span className="block font-semibold text-slate-900">{option.title}</span>
                <span className="block text-sm text-slate-600">{option.detail}</span>
              </span>
              {likely === option.arch && (
                <span
                  id={`likely-${option.arch}`}
                  className="rounded-full bg-blue-600 px-2 py-0.5 text-xs font-semibold text-white"
                >
                  Recommended for this Mac
                </span>
              )}
            </a>
          </li>
        ))}
        <li>
          <div
            aria-disabled="true"
            className="flex items-center gap-4 rounded-xl border-2 border-dashed border-slate-200 p-4 text-slate-500"
          >
            <Monitor aria-hidden className="h-8 w-8 shrink-0" />
            <span className="flex-1">
              <span className="block font-semibold">Windows</span>
              <span className="block text-sm">Coming soon</span>
            </span>
          </div>
        </li>
      </ul>
      <AccountHint onNavigate={onClose} />
      <div className="mt-4 text-sm text-slate-600">
        <span>Not sure which one? </span>
        <button
          type="button"
          aria-expanded={showHelp}
          aria-controls="chip-help"
          onClick={() => setShowHelp((s) => !s)}
          className="inline-flex items-center gap-1 font-medium text-blue-700 underline hover:text-blue-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <HelpCircle aria-hidden className="h-4 w-4" /> Check here
        </button>
        {showHelp && (
          <p id="chip-help" className="mt-2 rounded-lg bg-slate-50 p-3">
            Open the Apple menu and choose About This Mac. If it lists a Chip such as Apple M1, M2 or M3, choose Apple Silicon. If
            it lists a Processor with Intel in its name, choose Intel.
          </p>
        )}
      </div>
    </Modal>
  );
}
