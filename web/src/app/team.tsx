import { TeamPage } from "../features/team/components/Team";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Team", "Your Closewise sales team: members, invitations and seats.", { index: false });

/** Inside the account layout (app/account.tsx): its loader has restored the session. */
export default function TeamRoute() {
  return <TeamPage />;
}
