import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";
import { SIGN_UP_FOR_DOWNLOAD } from "../../../components/download/links";
import { config } from "../../../config";
import { SITE_ORIGIN } from "../../../lib/seo";
import type { DocumentBlock, DocumentPage } from "../documentTypes";

const link = "font-medium text-indigo-700 underline hover:text-indigo-900";

const activateAddress = `${new URL(SITE_ORIGIN).host}/activate`;

/** What each `{token}` in a page's text stands for. */
const TOKENS: Record<string, () => ReactNode> = {
  support: () => (
    <a href={`mailto:${config.supportEmail}`} className={link}>
      {config.supportEmail}
    </a>
  ),
  activate: () => (
    <Link to="/activate" className={link}>
      {activateAddress}
    </Link>
  ),
  signup: () => (
    <Link to={SIGN_UP_FOR_DOWNLOAD} className={link}>
      create a free account
    </Link>
  ),
};

/**
 * Text with each `{support}` as a mailto link to the support address, `{activate}` as a link to the
 * device code page and `{signup}` as sign-up that comes back to the download page.
 */
function WithSupport({ text }: { text: string }) {
  const parts = text.split(/\{(support|activate|signup)\}/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>{index % 2 === 1 ? TOKENS[part]!() : part}</Fragment>
      ))}
    </>
  );
}

function Block({ block }: { block: DocumentBlock }) {
  if (block.list)
    return (
      <ul className="list-disc space-y-2 pl-6">
        {block.list.map((item) => (
          <li key={item}>
            <WithSupport text={item} />
          </li>
        ))}
      </ul>
    );
  if (block.steps)
    return (
      <ol className="list-decimal space-y-2 pl-6">
        {block.steps.map((item) => (
          <li key={item}>
            <WithSupport text={item} />
          </li>
        ))}
      </ol>
    );
  return (
    <p>
      <WithSupport text={block.text ?? ""} />
    </p>
  );
}

/** A text page (privacy, terms, download, support); `children` go between the introduction and the sections. */
export function DocumentView({ page, children }: { page: DocumentPage; children?: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 text-slate-700 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{page.h1}</h1>
      {page.updated && <p className="mt-2 text-sm text-slate-600">{page.updated}</p>}
      <p className="mt-6 text-lg">
        <WithSupport text={page.intro} />
      </p>
      {children}
      {page.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="mt-10 space-y-4">
          <h2 id={`${section.id}-title`} className="text-xl font-semibold text-slate-900">
            {section.heading}
          </h2>
          {section.blocks.map((block, index) => (
            <Block key={index} block={block} />
          ))}
        </section>
      ))}
    </article>
  );
}
