import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { DownloadButton } from "../../../components/download/DownloadButton";
import { PricingSection } from "../../../components/pricing/PricingSection";
import type { MarketingPage } from "../content/types";
import { DemoSection } from "../demo/DemoSection";
import { Footer } from "../../../components/layout/Footer";
import { PageHeader } from "./PageHeader";
import { ArticleGrid, ClosingBanner, ComparisonTable, FeatureCards, ProofBlock, SignupWidget, StatsBox, Steps } from "./Sections";

/** The one layout every search landing page is rendered with. */
export function LandingPage({ page }: { page: MarketingPage }) {
  const aside = page.hero.demo ? <DemoSection /> : page.hero.signupWidget ? <SignupWidget /> : null;
  return (
    <>
      <PageHeader />
      <main>
        <section className="bg-gradient-to-b from-indigo-50 to-white">
          <div className={`mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 ${aside ? "lg:grid-cols-2" : ""}`}>
            <div>
              <p className="font-semibold text-indigo-800">{page.eyebrow}</p>
              <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">{page.h1}</h1>
              <p className="mt-6 text-lg text-slate-700">{page.heroCopy}</p>
              {page.hero.signupWidget && page.hero.demo ? (
                <div className="mt-8 max-w-md">
                  <SignupWidget />
                </div>
              ) : (
                <div className="mt-8 flex flex-wrap items-center gap-3">
                  <Link
                    to="/signup"
                    className="inline-flex items-center gap-2 rounded-full bg-indigo-700 px-6 py-3 font-semibold text-white hover:bg-indigo-800"
                  >
                    Start Free Trial
                    <ArrowRight aria-hidden="true" className="size-4" />
                  </Link>
                  <DownloadButton variant="secondary" />
                </div>
              )}
            </div>
            {aside}
          </div>
        </section>
        <FeatureCards heading={page.features.heading} cards={page.features.cards} />
        <Steps heading={page.howItWorks.heading} steps={page.howItWorks.steps} />
        <ProofBlock proof={page.proof} />
        <StatsBox heading={page.stats.heading} items={page.stats.items} />
        {page.comparison && <ComparisonTable table={page.comparison} />}
        {page.articles && <ArticleGrid heading={page.articles.heading} links={page.articles.links} />}
        <ClosingBanner heading={page.closing.heading} body={page.closing.body} />
        <PricingSection />
      </main>
      <Footer />
    </>
  );
}
