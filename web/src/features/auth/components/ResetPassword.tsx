import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import { resetPassword } from "../../../lib/api/auth";
import { AuthCard } from "./AuthCard";
import { NewPasswordForm } from "./NewPasswordForm";

export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const navigate = useNavigate();
  const [linkError, setLinkError] = useState<string | null>(token ? null : "This reset link is invalid.");

  if (linkError) {
    return (
      <AuthCard title="Reset link problem">
        <p role="alert" className="text-slate-700">
          {linkError}
        </p>
        <Link to="/forgot-password" className="mt-6 inline-block font-medium text-blue-700 underline hover:text-blue-900">
          Request a new link
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password">
      <NewPasswordForm
        labels={{ password: "New password", confirm: "Confirm new password" }}
        submitLabel="Reset password"
        submit={async (password) => {
          if (!token) return;
          await resetPassword({ token, password });
          toast.success("Password updated! Please sign in with your new password.");
          void navigate("/signin", { replace: true });
        }}
        onLinkError={setLinkError}
        onOtherError={(message) => toast.error(message)}
      />
    </AuthCard>
  );
}
