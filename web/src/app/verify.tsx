import { AppLayout } from "../components/layout/AppLayout";
import { VerifyEmail } from "../features/auth/components/VerifyEmail";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Verify your email", "Confirm your Closewise e-mail address.", { index: false });

export default function VerifyRoute() {
  return (
    <AppLayout>
      <VerifyEmail />
    </AppLayout>
  );
}
