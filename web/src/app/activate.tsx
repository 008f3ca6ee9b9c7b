import { Activate } from "../features/desktop/components/Activate";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () =>
  pageMeta("Activate the app", "Enter the code the Closewise desktop app shows to sign it in.", { index: false });

/** Inside the account layout (app/account.tsx): its loader has restored the session. */
export default function ActivateRoute() {
  const { user } = useAuth();
  return user ? <Activate user={user} /> : null;
}
