import { useState } from "react";
import { Link } from "react-router";
import { chooseVerifiedPassword } from "../../../lib/api/auth";
import type { User } from "../../../lib/api/types";
import { AuthCard } from "./AuthCard";
import { NewPasswordForm } from "./NewPasswordForm";

/**
 * The verification link's second step when the address was signed up for more than once: none of
 * the passwords typed at those sign-ups is the account's (docs/api.md `choose_password`), so the
 * person who read the mail chooses it here.
 */
export function ChoosePassword({
  email,
  passwordToken,
  onChosen,
}: {
  email: string;
  passwordToken: string;
  onChosen: (user: User) => void;
}) {
  const [linkError, setLinkError] = useState<string | null>(null);
  const [otherError, setOtherError] = useState<string | null>(null);

  if (linkError) {
    return (
      <AuthCard title="Choose your password">
        <p role="alert" className="text-slate-700">
          {linkError}
        </p>
        <p className="mt-4 text-sm text-slate-600">Your email address is verified: set a password with a reset link.</p>
        <Link to="/forgot-password" className="mt-6 inline-block font-medium text-blue-700 underline hover:text-blue-900">
          Forgot password?
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose your password">
      <p className="text-slate-700">
        Your email address has been verified. It was used to sign up more than once, so no password is set yet: choose the
        password for <strong>{email}</strong>.
      </p>
      {otherError && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {otherError}
        </p>
      )}
      <div className="mt-6">
        <NewPasswordForm
          labels={{ password: "Password", confirm: "Confirm password" }}
          submitLabel="Set password"
          submit={async (password) => {
            setOtherError(null);
            const { user } = await chooseVerifiedPassword({ password_token: passwordToken, password });
            onChosen(user);
          }}
          onLinkError={setLinkError}
          onOtherError={setOtherError}
        >
          {/* Lets password managers file the new password under the right account. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        </NewPasswordForm>
      </div>
    </AuthCard>
  );
}
