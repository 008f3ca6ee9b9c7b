import { AppLayout } from "../components/layout/AppLayout";
import { DocumentView } from "../features/marketing/components/DocumentView";
import { terms } from "../features/marketing/content/terms";
import { seoMeta } from "../lib/seo";

export const meta = () => seoMeta({ title: terms.title, description: terms.description, canonicalPath: terms.path });

export default function TermsRoute() {
  return (
    <AppLayout>
      <DocumentView page={terms} />
    </AppLayout>
  );
}
