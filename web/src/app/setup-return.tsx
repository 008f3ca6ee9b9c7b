import { AppLayout } from "../components/layout/AppLayout";
import { SetupReturn } from "../features/setup/components/SetupReturn";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Setup for IT", "Back from the test sign-in of a setup link.", { index: false });

/** Open to everyone: the identity provider's test sign-in comes back here. */
export default function SetupReturnRoute() {
  return (
    <AppLayout>
      <SetupReturn />
    </AppLayout>
  );
}
