import { Link } from "react-router";

/** The wordmark, linking home. The mark is inline SVG so it costs no request and never shifts layout. */
export function Logo({ className = "" }: { className?: string }) {
  return (
    <Link to="/" className={`inline-flex items-center gap-2 font-semibold text-slate-900 ${className}`}>
      <svg aria-hidden="true" width="28" height="28" viewBox="0 0 28 28" className="shrink-0">
        <rect width="28" height="28" rx="7" fill="#4338ca" />
        <path d="M8 15.5l4 4 8-10" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="text-lg tracking-tight">Closewise</span>
    </Link>
  );
}
