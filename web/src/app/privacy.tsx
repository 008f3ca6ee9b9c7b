import { AppLayout } from "../components/layout/AppLayout";
import { DocumentView } from "../features/marketing/components/DocumentView";
import { privacy } from "../features/marketing/content/privacy";
import { seoMeta } from "../lib/seo";

export const meta = () => seoMeta({ title: privacy.title, description: privacy.description, canonicalPath: privacy.path });

export default function PrivacyRoute() {
  return (
    <AppLayout>
      <DocumentView page={privacy} />
    </AppLayout>
  );
}
