import { AppLayout } from "../components/layout/AppLayout";
import { SignUpForm } from "../features/auth/components/SignUpForm";
import { seoMeta } from "../lib/seo";

export const meta = () =>
  seoMeta({
    title: "Sign Up | Closewise",
    description: "Create your Closewise account and start a Free Trial: live AI hints during your sales calls.",
    canonicalPath: "/signup",
  });

export default function SignUpRoute() {
  return (
    <AppLayout>
      <SignUpForm />
    </AppLayout>
  );
}
