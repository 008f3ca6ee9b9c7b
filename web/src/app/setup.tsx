import { AppLayout } from "../components/layout/AppLayout";
import { SetupPage } from "../features/setup/components/SetupPage";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Setup for IT", "Set up your team's domain, single sign-on and SCIM.", { index: false });

/** Open to everyone, no account: the setup link's token is the credential. */
export default function SetupRoute() {
  return (
    <AppLayout>
      <SetupPage />
    </AppLayout>
  );
}
