import { Download } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { buttonStyles, type ButtonVariant } from "../ui/Button";
import { Island } from "../ui/Island";
import { useHydrated } from "../ui/useHydrated";

// The modal is only fetched when someone asks for it, keeping landing pages light.
const DownloadModal = lazy(() => import("./DownloadModal").then((m) => ({ default: m.DownloadModal })));

/**
 * "Download for Mac". In prerendered HTML, and until the page's scripts have run, it is a link to the
 * download page, so a click that comes too early (or without JavaScript) still leads to the chooser's
 * instructions instead of doing nothing; once hydrated it is the button that opens the chooser.
 */
export function DownloadButton(props: DownloadButtonProps = {}) {
  return (
    <Island name="download" props={props}>
      <DownloadButtonContent {...props} />
    </Island>
  );
}

export interface DownloadButtonProps {
  label?: string;
  variant?: ButtonVariant;
  className?: string;
}

export function DownloadButtonContent({ label = "Download for Mac", variant = "primary", className }: DownloadButtonProps = {}) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const content = (
    <>
      <Download aria-hidden className="h-5 w-5" />
      {label}
    </>
  );
  if (!hydrated) {
    return (
      <a href="/download" className={buttonStyles(variant, className)}>
        {content}
      </a>
    );
  }
  return (
    <>
      <button type="button" aria-haspopup="dialog" onClick={() => setOpen(true)} className={buttonStyles(variant, className)}>
        {content}
      </button>
      {open && (
        <Suspense fallback={null}>
          <DownloadModal open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
