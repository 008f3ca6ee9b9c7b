import { Download } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { buttonStyles, type ButtonVariant } from "../ui/Button";

// The modal is only fetched when someone asks for it, keeping landing pages light.
const DownloadModal = lazy(() => import("./DownloadModal").then((m) => ({ default: m.DownloadModal })));

export function DownloadButton({
  label = "Download for Mac",
  variant = "primary",
  className,
}: { label?: string; variant?: ButtonVariant; className?: string } = {}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-haspopup="dialog" onClick={() => setOpen(true)} className={buttonStyles(variant, className)}>
        <Download aria-hidden className="h-5 w-5" />
        {label}
      </button>
      {open && (
        <Suspense fallback={null}>
          <DownloadModal open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
