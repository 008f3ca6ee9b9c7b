import { AppLayout } from "../components/layout/AppLayout";
import { SsoConfirm } from "../features/auth/components/SsoConfirm";
import { pageMeta } from "./meta";

export const meta = () =>
  pageMeta("Switch accounts?", "Confirm signing in with single sign-on as another account.", { index: false });

/** Open to everyone: the single sign-on callback sends a browser signed in to another account here. */
export default function SsoConfirmRoute() {
  return (
    <AppLayout>
      <SsoConfirm />
    </AppLayout>
  );
}
