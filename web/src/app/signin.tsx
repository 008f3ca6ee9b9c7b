import { AppLayout } from "../components/layout/AppLayout";
import { SignInForm } from "../features/auth/components/SignInForm";
import { seoMeta } from "../lib/seo";

export const meta = () =>
  seoMeta({
    title: "Sign In | Closewise",
    description: "Sign in to your Closewise account to manage your plan and download the app.",
    canonicalPath: "/signin",
  });

export default function SignInRoute() {
  return (
    <AppLayout>
      <SignInForm />
    </AppLayout>
  );
}
