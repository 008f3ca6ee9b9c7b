import { MonitorSmartphone } from "lucide-react";
import type { ReactNode } from "react";
import { Spinner } from "../../../components/ui/Spinner";

/**
 * The frame of the desktop app's sign-in pages: one card, one heading. `step` names the view: a new
 * step is a new heading element, which takes focus (HeadingFocus) even when its words stay the same.
 */
export function DesktopCard({ title, step, children }: { title: string; step?: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <MonitorSmartphone aria-hidden className="h-10 w-10 text-blue-600" />
        <h1 key={step} className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
          {title}
        </h1>
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

export function Pending({ text }: { text: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-slate-600">
      <Spinner /> {text}
    </p>
  );
}

export function Problem({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      {children}
    </p>
  );
}

/** The device a sign-in request comes from, as the app named it. */
export function DeviceDetails({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl bg-slate-50 p-4 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-500">{term}</dt>
          <dd className="font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
