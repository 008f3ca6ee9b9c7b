import { Link } from "react-router";

/** The agreement line under the sign-up form, linking the terms and the privacy policy. */
export function LegalNotice({ className = "" }: { className?: string }) {
  const link = "font-medium text-indigo-700 underline hover:text-indigo-900";
  return (
    <p className={`text-sm text-slate-600 ${className}`}>
      By creating an account you agree to our{" "}
      <Link to="/terms" className={link}>
        Terms of Service
      </Link>{" "}
      and{" "}
      <Link to="/privacy" className={link}>
        Privacy Policy
      </Link>
      .
    </p>
  );
}
