import type { SelectHTMLAttributes } from "react";
import { cn } from "./cn";
import { TOUCH_TARGET } from "./touch";

export const selectStyles = (extra?: string) =>
  cn(
    "block rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm",
    "focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30 disabled:opacity-60",
    TOUCH_TARGET,
    extra,
  );

/** A select styled like TextField's input; 44 px high on touch. */
export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={selectStyles(className)} {...props} />;
}
