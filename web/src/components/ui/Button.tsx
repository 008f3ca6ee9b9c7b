import type { ButtonHTMLAttributes } from "react";
import { cn } from "./cn";
import { TOUCH_TARGET } from "./touch";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

export const buttonStyles = (variant: ButtonVariant = "primary", extra?: string) =>
  cn(
    "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors",
    "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600",
    "disabled:cursor-not-allowed disabled:opacity-60",
    TOUCH_TARGET,
    variant === "primary" && "bg-blue-600 text-white hover:bg-blue-700",
    variant === "secondary" && "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
    variant === "ghost" && "text-slate-700 hover:bg-slate-100",
    variant === "danger" && "bg-red-600 text-white hover:bg-red-700",
    extra,
  );

export function Button({
  variant = "primary",
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonStyles(variant, className)} {...props} />;
}
