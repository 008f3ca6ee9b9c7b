import { Authorize } from "../features/desktop/components/Authorize";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () =>
  pageMeta("Sign in to the app", "Let the Closewise desktop app sign in to your account.", { index: false });

/** Inside the account layout (app/account.tsx): its loader has restored the session. */
export default function AuthorizeRoute() {
  const { user } = useAuth();
  return user ? <Authorize user={user} /> : null;
}
