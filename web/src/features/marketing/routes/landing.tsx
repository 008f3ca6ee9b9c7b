import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { DownloadButton } from "../../../components/download/DownloadButton";
import { NavBar } from "../../../components/layout/NavBar";
import { PricingSection } from "../../../components/pricing/PricingSection";
import { seoMeta } from "../../../lib/seo";
import { Footer } from "../../../components/layout/Footer";
import { FeatureIcon } from "../components/FeatureIcon";
import { landing } from "../content/landing";
import { DemoSection } from "../demo/DemoSection";

export const meta = () =>
  seoMeta({ title: landing.path.title, description: landing.path.description, canonicalPath: landing.path.path });

export default function LandingRoute() {
  return (
    <>
      <NavBar />
      <main>
        <section className="bg-gradient-to-b from-indigo-50 to-white pt-16">
          <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6">
            <p className="font-semibold text-indigo-800">{landing.eyebrow}</p>
            <h1 className="mx-auto mt-3 max-w-4xl text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl">{landing.h1}</h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-700">{landing.heroCopy}</p>
            <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
              <Link
                to="/signup"
                className="inline-flex items-center gap-2 rounded-full bg-indigo-700 px-6 py-3 font-semibold text-white hover:bg-indigo-800"
              >
                Start Free Trial
                <ArrowRight aria-hidden="true" className="size-4" />
              </Link>
              <DownloadButton variant="secondary" />
            </div>
            <p className="mt-4 text-sm text-slate-600">Free for 5 calls of 5 minutes. macOS now; Windows coming soon.</p>
            <ul className="mt-12 grid gap-6 text-left md:grid-cols-3">
              {landing.highlights.map((card) => (
                <li key={card.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                  <span className="inline-flex rounded-lg bg-indigo-50 p-2 text-indigo-700">
                    <FeatureIcon name={card.icon} />
                  </span>
                  <h2 className="mt-4 text-lg font-semibold text-slate-900">{card.title}</h2>
                  <p className="mt-2 text-slate-600">{card.body}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>
        <section aria-labelledby="demo-heading" className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
          <h2 id="demo-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900">
            {landing.demo.heading}
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">{landing.demo.intro}</p>
          <div className="mt-8">
            <DemoSection />
          </div>
          <dl className="mt-12 grid gap-6 text-center sm:grid-cols-3">
            {landing.stats.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse">
                <dt className="mt-1 text-sm text-slate-600">{stat.label}</dt>
                <dd className="text-3xl font-bold text-slate-900">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <PricingSection title={landing.pricing.heading} subtitle={landing.pricing.intro} />
      </main>
      <Footer />
    </>
  );
}
