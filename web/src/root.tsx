import { useState, type ReactNode } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { AppProviders, appClients } from "./app/providers";
import { config } from "./config";

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export const meta = () => [{ title: config.productName }];

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export default function App() {
  const [clients] = useState(appClients);
  return (
    <AppProviders {...clients}>
      <Outlet />
    </AppProviders>
  );
}

/** The app shell (client-only routes) shows this until the route's code has loaded. */
export function HydrateFallback() {
  return (
    <div className="flex min-h-screen flex-col">
      <div className="fixed inset-x-0 top-0 z-50 h-16" />
      <main className="flex flex-1 items-center justify-center pt-16">
        <p className="text-slate-500">Loading {config.productName}...</p>
      </main>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong";
  return (
    <main className="mx-auto max-w-xl p-8 pt-24 text-center">
      <h1 className="text-2xl font-bold">{message}</h1>
      <p className="mt-2 text-slate-600">
        Please reload the page. If it keeps happening, write to{" "}
        <a className="underline" href={`mailto:${config.supportEmail}`}>
          {config.supportEmail}
        </a>
        .
      </p>
      <a className="mt-6 inline-block underline" href="/">
        Back to Home
      </a>
    </main>
  );
}
