import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { Logo } from "../../../components/layout/Logo";

/** Header of the search landing pages: the logo link, a way back to the home page and Sign In. */
export function PageHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Logo />
        <div className="flex items-center gap-4">
          <Link to="/" className="inline-flex items-center gap-1 text-sm font-medium text-slate-700 hover:text-indigo-800">
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to Home
          </Link>
          <Link
            to="/signin"
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-indigo-700 hover:text-indigo-800"
          >
            Sign In
          </Link>
        </div>
      </div>
    </header>
  );
}
