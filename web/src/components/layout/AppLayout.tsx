import type { ReactNode } from "react";
import { Footer } from "./Footer";
import { NavBar } from "./NavBar";

/** Navigation bar, a main landmark below the fixed bar, and the site footer (`account`: the signed-in pages'). */
export function AppLayout({
  children,
  footer = true,
  account = false,
}: {
  children: ReactNode;
  footer?: boolean;
  account?: boolean;
}) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <NavBar />
      {/* At least a screen tall, so the footer starts below the fold and never moves while data loads. */}
      <main id="main" className="min-h-screen flex-1 pt-16">
        {children}
      </main>
      {footer && <Footer account={account} />}
    </div>
  );
}
