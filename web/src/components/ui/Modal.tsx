import { X } from "lucide-react";
import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';
const FIELD = "input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled])";
/** Marks the dialog's own close button: focus starts on it only when there is nothing else to focus. */
const CLOSE = "data-dialog-close";

/** Where focus starts in a dialog: its first field, else its first control other than Close, else Close. */
function firstFocus(node: HTMLElement | null): HTMLElement | null {
  if (!node) return null;
  const controls = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)];
  return node.querySelector<HTMLElement>(FIELD) ?? controls.find((c) => !c.hasAttribute(CLOSE)) ?? controls[0] ?? null;
}

/**
 * Keeps Tab inside `container`, closes on Escape and hands focus back to where it was on close; when
 * that element is gone (its row was removed, the view changed), to the first of the elements with the
 * ids in `fallback` that exists (headings with `tabIndex={-1}`).
 */
export function useFocusTrap(
  open: boolean,
  container: React.RefObject<HTMLElement | null>,
  onClose: () => void,
  initial?: React.RefObject<HTMLElement | null>,
  fallback?: readonly string[],
) {
  const close = useEffectEvent(onClose);
  const restore = useEffectEvent((previous: HTMLElement | null) => {
    if (previous?.isConnected) {
      previous.focus?.();
      return;
    }
    for (const id of fallback ?? []) {
      const target = document.getElementById(id);
      if (target) {
        target.focus();
        return;
      }
    }
  });
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const node = container.current;
    const first = initial?.current ?? firstFocus(node);
    first?.focus();
    function onKey(event: KeyboardEvent) {
      if (event.key === "Escape") {
        event.stopPropagation();
        close();
        return;
      }
      if (event.key !== "Tab" || !node) return;
      const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const head = items[0]!;
      const tail = items[items.length - 1]!;
      if (event.shiftKey && document.activeElement === head) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && document.activeElement === tail) {
        event.preventDefault();
        head.focus();
      }
    }
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      restore(previous);
    };
  }, [open, container, initial]);
}

export function Modal({
  open,
  onClose,
  title,
  children,
  initialFocus,
  fallbackFocus,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  initialFocus?: React.RefObject<HTMLElement | null>;
  /** Ids of elements to focus on close, in order, when the element that opened the dialog is gone. */
  fallbackFocus?: readonly string[];
}) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useFocusTrap(open, panel, onClose, initialFocus, fallbackFocus);
  if (!open) return null;
  return createPortal(
    <div className="fixed inset-0 z-[60] flex items-center justify-center p-4">
      <div className="absolute inset-0 bg-slate-900/50" aria-hidden onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="relative max-h-[90vh] w-full max-w-lg overflow-y-auto rounded-2xl bg-white p-6 shadow-xl"
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-xl font-bold text-slate-900">
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            {...{ [CLOSE]: "" }}
            className="-m-1 flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            <X aria-hidden className="h-5 w-5" />
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
