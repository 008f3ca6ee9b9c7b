import { AppLayout } from "../components/layout/AppLayout";
import { DocumentView } from "../features/marketing/components/DocumentView";
import { support } from "../features/marketing/content/support";
import { seoMeta } from "../lib/seo";

export const meta = () => seoMeta({ title: support.title, description: support.description, canonicalPath: support.path });

export default function SupportRoute() {
  return (
    <AppLayout>
      <DocumentView page={support} />
    </AppLayout>
  );
}
