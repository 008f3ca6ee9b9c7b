import { AppLayout } from "../components/layout/AppLayout";
import { DownloadButton } from "../components/download/DownloadButton";
import { DocumentView } from "../features/marketing/components/DocumentView";
import { download } from "../features/marketing/content/download";
import { seoMeta } from "../lib/seo";

export const meta = () => seoMeta({ title: download.title, description: download.description, canonicalPath: download.path });

export default function DownloadRoute() {
  return (
    <AppLayout>
      <DocumentView page={download}>
        <DownloadButton className="mt-6" />
      </DocumentView>
    </AppLayout>
  );
}
