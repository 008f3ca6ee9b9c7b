import { AppLayout } from "../components/layout/AppLayout";
import { ForgotPassword } from "../features/auth/components/ForgotPassword";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Reset your password", "Get a link to reset your Closewise password.", { index: false });

export default function ForgotPasswordRoute() {
  return (
    <AppLayout>
      <ForgotPassword />
    </AppLayout>
  );
}
