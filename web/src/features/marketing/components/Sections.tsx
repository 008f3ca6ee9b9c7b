//! The building blocks every landing page is made of; LandingPage arranges them.

import { ArrowRight, Check, ExternalLink } from "lucide-react";
import { Link } from "react-router";
import type { ArticleLink, ComparisonTable as Comparison, FeatureCard, Proof, Stat } from "../content/types";
import { FeatureIcon } from "./FeatureIcon";

export function FeatureCards({ heading, cards }: { heading: string; cards: FeatureCard[] }) {
  return (
    <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="features-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900">
        {heading}
      </h2>
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {cards.map((card) => (
          <li key={card.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="inline-flex rounded-lg bg-indigo-50 p-2 text-indigo-700">
              <FeatureIcon name={card.icon} />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{card.title}</h3>
            <p className="mt-2 text-slate-600">{card.body}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Steps({ heading, steps }: { heading: string; steps: { title: string; body: string }[] }) {
  return (
    <section aria-labelledby="steps-heading" className="bg-slate-50 py-16">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="steps-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          {heading}
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-700 font-semibold text-white"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-1 text-slate-600">{step.body}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

export function ProofBlock({ proof }: { proof: Proof }) {
  return (
    <section aria-labelledby="proof-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="proof-heading" className="text-3xl font-bold tracking-tight text-slate-900">
        {proof.heading}
      </h2>
      {proof.kind === "benefits" ? (
        <ul className="mt-8 grid gap-4 md:grid-cols-3">
          {proof.items.map((item) => (
            <li key={item.title} className="flex gap-3">
              <Check aria-hidden="true" className="mt-1 size-5 shrink-0 text-emerald-700" />
              <div>
                <h3 className="font-semibold text-slate-900">{item.title}</h3>
                <p className="mt-1 text-slate-600">{item.body}</p>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <dl className="mt-8 grid gap-6 md:grid-cols-3">
          {proof.items.map((item) => (
            <div key={item.title} className="rounded-2xl bg-indigo-50 p-6">
              <dt>
                <span className="block text-4xl font-bold text-indigo-800">{item.value}</span>
                <span className="mt-1 block font-semibold text-slate-900">{item.title}</span>
              </dt>
              <dd className="mt-2 text-slate-700">{item.body}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

export function StatsBox({ heading, items }: { heading: string; items: Stat[] }) {
  return (
    <section aria-labelledby="stats-heading" className="mx-auto max-w-6xl px-4 sm:px-6">
      <div className="rounded-3xl bg-slate-900 px-6 py-10 text-white">
        <h2 id="stats-heading" className="text-center text-xl font-semibold">
          {heading}
        </h2>
        <dl className="mt-6 grid gap-6 text-center sm:grid-cols-3">
          {items.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse">
              <dt className="mt-1 text-sm text-slate-300">{stat.label}</dt>
              <dd className="text-4xl font-bold">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

export function ComparisonTable({ table }: { table: Comparison }) {
  return (
    <section aria-labelledby="comparison-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="comparison-heading" className="text-3xl font-bold tracking-tight text-slate-900">
        {table.heading}
      </h2>
      <div className="mt-8 overflow-x-auto rounded-2xl border border-slate-200">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <thead className="bg-slate-50 text-slate-900">
            <tr>
              <th scope="col" className="p-4 font-semibold">
                Capability
              </th>
              {table.columns.map((column, index) => (
                <th key={column} scope="col" className={`p-4 font-semibold ${index === 0 ? "text-indigo-800" : ""}`}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {table.rows.map((row) => (
              <tr key={row.capability}>
                <th scope="row" className="p-4 font-medium text-slate-900">
                  {row.capability}
                </th>
                {row.values.map((value, index) => (
                  <td key={index} className={`p-4 ${index === 0 ? "font-medium text-slate-900" : "text-slate-600"}`}>
                    {value}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function ArticleGrid({ heading, links }: { heading: string; links: ArticleLink[] }) {
  return (
    <section aria-labelledby="articles-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="articles-heading" className="text-2xl font-bold tracking-tight text-slate-900">
        {heading}
      </h2>
      <ul className="mt-6 grid gap-4 md:grid-cols-3">
        {links.map((article) => (
          <li key={article.url}>
            <a
              href={article.url}
              target="_blank"
              rel="noopener noreferrer"
              className="block h-full rounded-2xl border border-slate-200 p-5 hover:border-indigo-400 focus-visible:outline-2 focus-visible:outline-indigo-700"
            >
              <span className="text-sm font-medium text-indigo-800">{article.source}</span>
              <span className="mt-1 flex items-start gap-1 font-semibold text-slate-900">
                {article.title}
                <ExternalLink aria-hidden="true" className="mt-1 size-4 shrink-0" />
                <span className="sr-only">(opens in a new tab)</span>
              </span>
              <span className="mt-2 block text-sm text-slate-600">{article.summary}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ClosingBanner({ heading, body }: { heading: string; body: string }) {
  return (
    <section aria-labelledby="closing-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <div className="rounded-3xl bg-indigo-700 px-6 py-12 text-center text-white">
        <h2 id="closing-heading" className="text-3xl font-bold tracking-tight">
          {heading}
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-indigo-50">{body}</p>
        <Link
          to="/signup"
          className="mt-8 inline-flex items-center gap-2 rounded-full bg-white px-6 py-3 font-semibold text-indigo-800 hover:bg-indigo-50"
        >
          Start Free Trial
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
    </section>
  );
}

/** The sign-up call-to-action widget some heroes carry. */
export function SignupWidget() {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <p className="text-lg font-semibold text-slate-900">Try it on your next call</p>
      <ul className="mt-3 space-y-2 text-slate-600">
        <li className="flex gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-5 text-emerald-700" /> 5 free calls of 5 minutes each
        </li>
        <li className="flex gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-5 text-emerald-700" /> No card needed to start
        </li>
        <li className="flex gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-5 text-emerald-700" /> Unlimited for $20 a month
        </li>
      </ul>
      <Link
        to="/signup"
        className="mt-5 flex w-full items-center justify-center gap-2 rounded-full bg-indigo-700 px-5 py-3 font-semibold text-white hover:bg-indigo-800"
      >
        Start Free Trial
        <ArrowRight aria-hidden="true" className="size-4" />
      </Link>
      <p className="mt-3 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link to="/signin" className="font-medium text-indigo-800 underline">
          Sign In
        </Link>
      </p>
    </div>
  );
}
