import { Success } from "../features/checkout/components/Success";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Payment Successful", "Your Closewise subscription.", { index: false });

/** Inside the account layout (app/account.tsx): its loader has restored the session. */
export default function SuccessRoute() {
  const { user } = useAuth();
  return user ? <Success user={user} /> : null;
}
