import { CheckCircle2, Copy } from "lucide-react";
import type { ReactNode } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { failureMessage } from "../../../lib/api/client";

export const errorMessage = (error: unknown) => failureMessage(error);

/** A value to paste somewhere else, with its copy button (named after it). */
export function CopyValue({ label, value }: { label: string; value: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${label} copied`);
    } catch {
      toast.error("Could not copy; select the text instead");
    }
  }
  return (
    <div className="space-y-1">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-slate-50 p-2 text-sm">{value}</code>
        <Button variant="secondary" aria-label={`Copy ${label}`} onClick={() => void copy()}>
          <Copy aria-hidden className="h-4 w-4" />
        </Button>
      </dd>
    </div>
  );
}

/** An error the person should hear about at once (a live region). */
export function Problem({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <p role="alert" className={`rounded-xl border border-red-300 bg-red-50 p-3 text-sm text-red-900 ${className}`}>
      {children}
    </p>
  );
}

/** One step of the guided page: a numbered card with a level-2 heading, marked once it is done. */
export function StepCard({
  id,
  number,
  title,
  done,
  children,
}: {
  id: string;
  number: number;
  title: string;
  done: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id} tabIndex={-1} className="flex flex-wrap items-center gap-2 text-lg font-semibold text-slate-900">
        <span>
          {number}. {title}
        </span>
        {done && (
          <span className="flex items-center gap-1 rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">
            <CheckCircle2 aria-hidden className="h-3.5 w-3.5" /> Done
          </span>
        )}
      </h2>
      <div className="mt-3 space-y-4">{children}</div>
    </section>
  );
}
