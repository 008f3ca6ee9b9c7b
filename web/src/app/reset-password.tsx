import { AppLayout } from "../components/layout/AppLayout";
import { ResetPassword } from "../features/auth/components/ResetPassword";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Choose a new password", "Set a new password for your Closewise account.", { index: false });

export default function ResetPasswordRoute() {
  return (
    <AppLayout>
      <ResetPassword />
    </AppLayout>
  );
}
