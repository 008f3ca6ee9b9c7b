//! Toast durations and limits of the spec: bottom centre, 4 s default and error, 2 s success, 20 at once
//! (react-hot-toast's own limit is 20).
import toast, { type ToasterProps } from "react-hot-toast";

export const toasterProps: ToasterProps = {
  position: "bottom-center",
  toastOptions: {
    duration: 4000,
    success: { duration: 2000 },
    error: { duration: 4000 },
  },
};

export const TOAST_LIMIT = 20;

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
