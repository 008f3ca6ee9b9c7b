import { Settings } from "../features/settings/components/Settings";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Settings", "Your Closewise account settings.", { index: false });

/** Inside the account layout (app/account.tsx): its loader has restored the session. */
export default function SettingsRoute() {
  const { user } = useAuth();
  return user ? <Settings user={user} /> : null;
}
