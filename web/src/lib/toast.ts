//! Toast durations and limits of the spec: bottom centre, 4 s default and error, 2 s success, 20 at once
//! (react-hot-toast's own limit is 20). Toasts are for what has no place on the page (a form or field
//! that owns a failure says it inline, once); an error toast leaves with the page it was raised on, and
//! on the sign-in and sign-up pages toasts sit at the top, clear of the SSO and passkey buttons.
import { useEffect, useRef } from "react";
import toast, { type ToastPosition, type ToasterProps, useToasterStore } from "react-hot-toast";

export const toasterProps: ToasterProps = {
  position: "bottom-center",
  toastOptions: {
    duration: 4000,
    success: { duration: 2000 },
    error: { duration: 4000 },
  },
};

export const TOAST_LIMIT = 20;

/** The pages whose buttons fill the bottom of a phone's screen (SSO, passkey): their toasts go on top. */
const TOP_PAGES = ["/signin", "/signup"];

export function toasterPosition(pathname: string): ToastPosition {
  return TOP_PAGES.includes(pathname) ? "top-center" : (toasterProps.position ?? "bottom-center");
}

/** An error toast raised this long before a navigation belongs to the page left behind. */
const STALE_MS = 1000;

/**
 * Dismisses the error toasts of the page left behind when `pathname` changes; an error raised with
 * the navigation itself (why the visitor was sent on) and success toasts stay.
 */
export function useDismissStaleToasts(pathname: string): void {
  const { toasts } = useToasterStore();
  const latest = useRef(toasts);
  const shown = useRef(pathname);
  useEffect(() => {
    latest.current = toasts;
  });
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const now = Date.now();
    for (const t of latest.current) if (t.type === "error" && now - t.createdAt > STALE_MS) toast.dismiss(t.id);
  }, [pathname]);
}

const CARRIED = "closewise.toast";
/** How long after the action a page load still carries its toast. */
const CARRY_MS = 3000;

/**
 * A success toast now, and on the next page if this one unloads within a few seconds: on a public
 * page, navigating is a page load, which would take the toast away with the page.
 */
export function successAcrossPageLoad(message: string): void {
  toast.success(message);
  const carry = () => {
    try {
      sessionStorage.setItem(CARRIED, message);
    } catch {
      // Storage refused (private mode, quota): the toast stays with this page only.
    }
  };
  window.addEventListener("pagehide", carry, { once: true });
  setTimeout(() => window.removeEventListener("pagehide", carry), CARRY_MS);
}

/** Shows (once) the toast the page before carried across its unload. */
export function showCarriedToast(): void {
  let message: string | null = null;
  try {
    message = sessionStorage.getItem(CARRIED);
    sessionStorage.removeItem(CARRIED);
  } catch {
    return;
  }
  if (message) toast.success(message);
}
