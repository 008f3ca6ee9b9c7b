import { Link } from "react-router";
import { AppLayout } from "../components/layout/AppLayout";
import { buttonStyles } from "../components/ui/Button";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Page not found", "This page does not exist.", { index: false });

export default function NotFoundRoute() {
  return (
    <AppLayout>
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <p className="text-sm font-semibold text-blue-700">404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Page not found</h1>
        <p className="mt-4 text-slate-600">Sorry, we couldn&apos;t find the page you&apos;re looking for.</p>
        <Link to="/" className={buttonStyles("primary", "mt-8")}>
          Back to Home
        </Link>
      </div>
    </AppLayout>
  );
}
