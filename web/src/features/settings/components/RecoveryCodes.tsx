//! The recovery codes, shown once (after turning the app on, or after "Generate new codes"), with
//! Download (a .txt file) and Copy.

import { Copy, Download } from "lucide-react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";

export const RECOVERY_CODES_FILE = "closewise-recovery-codes.txt";

export function recoveryCodesText(codes: string[], email: string) {
  return [`Closewise recovery codes for ${email}`, "Each code works once. Keep them somewhere safe.", "", ...codes, ""].join(
    "\n",
  );
}

export function RecoveryCodes({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
  function download() {
    const url = URL.createObjectURL(new Blob([recoveryCodesText(codes, email)], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = RECOVERY_CODES_FILE;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      toast.success("Recovery codes copied");
    } catch {
      toast.error("Could not copy the codes; download them instead");
    }
  }

  return (
    <section aria-labelledby="recovery-title" className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h3 id="recovery-title" className="font-semibold text-slate-900">
        Your recovery codes
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        Save these codes now: they are shown only once. Each one signs you in once if you lose your phone.
      </p>
      <ul aria-label="Recovery codes" className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm text-slate-900">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button variant="secondary" onClick={download}>
          <Download aria-hidden className="mr-1 h-4 w-4" /> Download
        </Button>
        <Button variant="secondary" onClick={() => void copy()}>
          <Copy aria-hidden className="mr-1 h-4 w-4" /> Copy
        </Button>
        <Button onClick={onDone}>I have saved my codes</Button>
      </div>
    </section>
  );
}
