import { AppLayout } from "../components/layout/AppLayout";
import { Invite } from "../features/team/components/Invite";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Team invitation", "Join your team on Closewise.", { index: false });

/** Open to everyone: a signed-out visitor sees the invitation and signs in or up with its address. */
export default function InviteRoute() {
  return (
    <AppLayout>
      <Invite />
    </AppLayout>
  );
}
