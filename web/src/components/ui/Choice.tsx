import type { InputHTMLAttributes, ReactNode } from "react";
import { cn } from "./cn";
import { TOUCH_TARGET } from "./touch";

/**
 * A checkbox or radio with its label as one target: the whole row takes the tap, at least 44 px
 * high on touch screens and narrow windows; the box itself is 20 px.
 */
export function Choice({
  label,
  className,
  type = "checkbox",
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & { label: ReactNode; type?: "checkbox" | "radio" }) {
  return (
    <label className={cn("flex items-center gap-3 text-slate-800", TOUCH_TARGET, className)}>
      <input type={type} className="h-5 w-5 shrink-0 rounded border-slate-300 accent-blue-600" {...props} />
      <span>{label}</span>
    </label>
  );
}
