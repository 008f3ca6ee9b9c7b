import { ChevronDown, Menu, Settings as SettingsIcon, UserCircle2, Users, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate } from "react-router";
import { config } from "../../config";
import { useAuth } from "../../lib/auth/AuthProvider";
import { successAcrossPageLoad } from "../../lib/toast";
import { useFocusTrap } from "../ui/Modal";
import { useHydrated } from "../ui/useHydrated";
import { buttonStyles } from "../ui/Button";
import { cn } from "../ui/cn";
import { Island } from "../ui/Island";
import { Address } from "../ui/Address";
import { TOUCH_TARGET } from "../ui/touch";

/** The spec: the bar turns white with a shadow after this much scrolling. */
export const NAV_SHADOW_AFTER_PX = 10;

function useScrolledPast(px: number) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > px);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, [px]);
  return scrolled;
}

function useSignOut() {
  const { manager } = useAuth();
  const navigate = useNavigate();
  return async () => {
    try {
      await manager.signOut();
      // On a public page the navigation below is a page load: the toast goes with it to the next.
      successAcrossPageLoad("Signed out successfully");
      void navigate("/");
    } catch {
      toast.error("Error signing out");
    }
  };
}

/** A menu's keys (WAI-ARIA menu pattern): the arrows move through the items, round; Home and End to the ends. */
function moveWithArrows(event: React.KeyboardEvent<HTMLElement>) {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const at = items.indexOf(document.activeElement as HTMLElement);
  const to =
    event.key === "ArrowDown"
      ? (at + 1) % items.length
      : event.key === "ArrowUp"
        ? (at - 1 + items.length) % items.length
        : event.key === "Home"
          ? 0
          : event.key === "End"
            ? items.length - 1
            : null;
  if (to === null || items.length === 0) return;
  event.preventDefault();
  items[to]!.focus();
}

/** An item of the user menu: 44 px high on touch. */
const MENU_ITEM = cn(
  "flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-700 hover:bg-slate-100",
  "focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600",
  TOUCH_TARGET,
);

function UserMenu({ email }: { email: string }) {
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const signOut = useSignOut();
  useFocusTrap(open, panel, () => setOpen(false));
  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);
  return (
    <div className="relative" ref={root}>
      <button
        type="button"
        aria-label={`User menu ${email}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className={buttonStyles("ghost", "max-w-[18rem] lg:max-w-[28rem]")}
      >
        <UserCircle2 aria-hidden className="h-5 w-5 shrink-0" />
        {/* Whole where there is room; cut only on a narrow window, where hovering shows it all. */}
        <span className="truncate" title={email}>
          {email}
        </span>
        <ChevronDown aria-hidden className="h-4 w-4 shrink-0" />
      </button>
      {open && (
        <div
          ref={panel}
          role="menu"
          aria-label="User menu"
          tabIndex={-1}
          onKeyDown={moveWithArrows}
          className="absolute right-0 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
        >
          <div className="border-b border-slate-100 px-3 pb-2 pt-1">
            <p className="text-sm font-medium text-slate-900">
              <Address email={email} />
            </p>
            <p className="text-xs text-slate-500">Signed in</p>
          </div>
          <Link role="menuitem" to="/settings" onClick={() => setOpen(false)} className={cn(MENU_ITEM, "mt-1")}>
            <SettingsIcon aria-hidden className="h-4 w-4" /> Settings
          </Link>
          <Link role="menuitem" to="/team" onClick={() => setOpen(false)} className={MENU_ITEM}>
            <Users aria-hidden className="h-4 w-4" /> Team
          </Link>
          <button
            role="menuitem"
            type="button"
            onClick={() => {
              setOpen(false);
              void signOut();
            }}
            className={cn(MENU_ITEM, "w-full text-left")}
          >
            Sign Out
          </button>
        </div>
      )}
    </div>
  );
}

/** The navigation bar; on prerendered public pages an island (its menu and account state load on their own). */
export function NavBar({ className }: { className?: string } = {}) {
  return (
    <Island name="nav" props={className ? { className } : undefined}>
      <NavBarContent className={className} />
    </Island>
  );
}

export function NavBarContent({ className }: { className?: string } = {}) {
  const auth = useAuth();
  const scrolled = useScrolledPast(NAV_SHADOW_AFTER_PX);
  const [mobileOpen, setMobileOpen] = useState(false);
  // Disabled in prerendered HTML until hydration: a tap then waits instead of being lost.
  const hydrated = useHydrated();
  const signOut = useSignOut();
  const toggle = useRef<HTMLButtonElement>(null);
  // A disclosure, not a dialog: no focus trap; Escape or its own close button closes it, focus back on the toggle.
  const closeMobile = () => {
    setMobileOpen(false);
    toggle.current?.focus();
  };
  useEffect(() => {
    if (!mobileOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMobileOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [mobileOpen]);

  const linkClass = cn(
    "flex items-center rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-950",
    "focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600",
    TOUCH_TARGET,
  );

  return (
    <header
      data-scrolled={scrolled ? "true" : "false"}
      className={cn(
        "fixed inset-x-0 top-0 z-50 transition-colors duration-200",
        scrolled || mobileOpen ? "bg-white shadow-md" : "bg-transparent",
        className,
      )}
    >
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8">
        <Link
          to="/"
          className="rounded text-xl font-bold tracking-tight text-slate-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          {config.productName}
        </Link>

        <div className="hidden min-w-[14rem] items-center justify-end gap-2 md:flex">
          <Link to="/pricing" className={linkClass}>
            Pricing
          </Link>
          {/* While the session loads (and in the prerendered page), the signed-out links' own words and
              styles, invisible and inert: they take exactly the room of what a visitor sees next, so
              nothing moves when the session arrives. */}
          {auth.status === "loading" && (
            <span aria-hidden className="invisible flex items-center gap-2">
              <span className={linkClass}>Sign In</span>
              <span className={buttonStyles("primary")}>Get Started</span>
            </span>
          )}
          {auth.status === "signedOut" && (
            <>
              <Link to="/signin" className={linkClass}>
                Sign In
              </Link>
              <Link to="/signup" className={buttonStyles("primary")}>
                Get Started
              </Link>
            </>
          )}
          {auth.status === "signedIn" && (
            <>
              <Link to="/dashboard" className={linkClass}>
                Dashboard
              </Link>
              <UserMenu email={auth.user.email} />
            </>
          )}
        </div>

        <button
          ref={toggle}
          type="button"
          className="flex min-h-11 min-w-11 items-center justify-center rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 md:hidden"
          aria-label={mobileOpen ? "Close menu" : "Open menu"}
          aria-expanded={mobileOpen}
          aria-controls="mobile-menu"
          disabled={!hydrated}
          onClick={() => setMobileOpen((o) => !o)}
        >
          {mobileOpen ? <X aria-hidden className="h-6 w-6" /> : <Menu aria-hidden className="h-6 w-6" />}
        </button>
      </nav>

      {mobileOpen && (
        <div id="mobile-menu" className="border-t border-slate-200 bg-white px-4 pb-4 pt-2 md:hidden">
          <Link to="/pricing" className={cn(linkClass, "block")} onClick={() => setMobileOpen(false)}>
            Pricing
          </Link>
          {/* While the session loads, no account links: neither Sign In nor Dashboard may be wrong. */}
          {auth.status === "loading" ? null : auth.status === "signedIn" ? (
            <div className="flex flex-col gap-1">
              <p className="px-3 pt-2 text-sm font-medium text-slate-900">
                <Address email={auth.user.email} />
              </p>
              <p className="px-3 pb-2 text-xs text-slate-500">Signed in</p>
              <Link to="/dashboard" className={linkClass} onClick={() => setMobileOpen(false)}>
                Dashboard
              </Link>
              <Link to="/settings" className={linkClass} onClick={() => setMobileOpen(false)}>
                Settings
              </Link>
              <Link to="/team" className={linkClass} onClick={() => setMobileOpen(false)}>
                Team
              </Link>
              <button
                type="button"
                className={cn(linkClass, "text-left")}
                onClick={() => {
                  setMobileOpen(false);
                  void signOut();
                }}
              >
                Sign Out
              </button>
            </div>
          ) : (
            <div className="flex flex-col gap-2">
              <Link to="/signin" className={linkClass} onClick={() => setMobileOpen(false)}>
                Sign In
              </Link>
              <Link to="/signup" className={buttonStyles("primary")} onClick={() => setMobileOpen(false)}>
                Get Started
              </Link>
            </div>
          )}
          <button type="button" className={cn(linkClass, "mt-2 flex w-full items-center gap-2 text-left")} onClick={closeMobile}>
            <X aria-hidden className="h-4 w-4" /> Close menu
          </button>
        </div>
      )}
    </header>
  );
}
