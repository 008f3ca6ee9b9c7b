import { Link } from "react-router";
import { DownloadButton } from "../download/DownloadButton";
import { ownContentLinks, sharedLayoutLinks, type PageLink } from "./footerLinks";
import { Logo } from "./Logo";

const productLinks = [
  { to: "/", label: "Home" },
  { to: "/pricing", label: "Pricing" },
  { to: "/signup", label: "Start Free Trial" },
  { to: "/signin", label: "Sign In" },
  { to: "/download", label: "Download" },
  { to: "/support", label: "Contact and Support" },
];

/** The signed-in pages': no way to sign up or in for someone who is signed in already. */
const accountProductLinks = [
  { to: "/", label: "Home" },
  { to: "/dashboard", label: "Dashboard" },
  ...productLinks.filter((l) => !["/", "/signup", "/signin"].includes(l.to)),
];

const legalLinks = [
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms", label: "Terms of Service" },
];

const toLink = (page: PageLink) => ({ to: page.path, label: page.label });

/**
 * Site footer: links every public page, and the Mac download with Windows marked as coming soon. On the
 * signed-in pages (`account`) the product column leads to the dashboard instead of to signing up or in.
 */
export function Footer({ account = false }: { account?: boolean }) {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="space-y-4">
          <Logo />
          <p className="text-sm text-slate-600">
            Live AI hints for sales calls: objection handling, suggested replies and follow-up drafts.
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <DownloadButton />
            <span className="rounded-full border border-slate-300 px-3 py-1.5 text-sm text-slate-600">Windows: coming soon</span>
          </div>
        </div>
        <FooterColumn title="Product" links={account ? accountProductLinks : productLinks} />
        <FooterColumn title="Solutions" links={ownContentLinks.slice(0, 8).map(toLink)} />
        <FooterColumn title="Resources" links={[...ownContentLinks.slice(8), ...sharedLayoutLinks].map(toLink)} />
      </div>
      <div className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2 border-t border-slate-200 py-6 text-sm text-slate-600">
        <p suppressHydrationWarning>© {year} Closewise. All rights reserved.</p>
        <nav aria-label="Legal">
          <ul className="flex gap-6">
            {legalLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-slate-600 underline hover:text-indigo-800">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

function FooterColumn({ title, links }: { title: string; links: { to: string; label: string }[] }) {
  return (
    <nav aria-label={title}>
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      <ul className="mt-3 space-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-sm text-slate-600 hover:text-indigo-800">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
