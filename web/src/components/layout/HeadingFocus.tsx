import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/** The heading of the page or view shown: the main landmark's first level-one heading. */
const HEADING = "main h1";

/**
 * Moves focus to the new heading on every route change and view swap (sign-up → Check Your Email,
 * the `/activate` and `/authorize` steps, Activating → Payment Successful), so screen readers read
 * it and the next Tab starts there. A view swap is a heading that is a new element or says something
 * new; a view that keeps its heading across steps gives it a `key`. Nothing moves on the first load
 * (the heading appearing after the page's data), nor while a dialog holds focus (it hands focus back
 * itself), nor when the visitor is busy elsewhere on a page they have not touched.
 */
export function HeadingFocus() {
  const { pathname } = useLocation();
  const seen = useRef({ heading: null as Element | null, text: "", routeChanged: false, touched: false, path: pathname });

  useEffect(() => {
    const s = seen.current;
    const touch = () => {
      s.touched = true;
    };
    const check = () => {
      const heading = document.querySelector<HTMLElement>(HEADING);
      if (!heading) return; // still loading: the heading that comes is the one to focus
      const swapped = s.heading !== null && (heading !== s.heading || heading.textContent !== s.text);
      const due = s.routeChanged || swapped;
      s.heading = heading;
      s.text = heading.textContent ?? "";
      s.routeChanged = false;
      if (!due || heading === document.activeElement) return;
      const active = document.activeElement;
      if (active?.closest('[role="dialog"]')) return;
      const idle = !active || active === document.body;
      if (!idle && !s.touched) return;
      if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
      heading.focus();
    };
    document.addEventListener("pointerdown", touch, true);
    document.addEventListener("keydown", touch, true);
    const observer = new MutationObserver(check);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    check();
    return () => {
      observer.disconnect();
      document.removeEventListener("pointerdown", touch, true);
      document.removeEventListener("keydown", touch, true);
    };
  }, []);

  useEffect(() => {
    const s = seen.current;
    if (s.path === pathname) return;
    s.path = pathname;
    // The new page's heading, now or when it has loaded (the observer above focuses it then).
    s.routeChanged = true;
    s.heading = null;
    const heading = document.querySelector<HTMLElement>(HEADING);
    if (heading) {
      s.routeChanged = false;
      s.heading = heading;
      s.text = heading.textContent ?? "";
      if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
      if (!document.activeElement?.closest('[role="dialog"]')) heading.focus();
    }
  }, [pathname]);
  return null;
}
