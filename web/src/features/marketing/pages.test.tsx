import { render, screen, within } from "@testing-library/react";
import type { ComponentType } from "react";
import { RouterProvider, type MetaDescriptor } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { routerWithProviders } from "../../testing/router";
import { landing } from "./content/landing";
import { marketingPages } from "./content/pages";
import type { MarketingPage } from "./content/types";
import { marketingPaths, marketingRoutes } from "./routes";

vi.mock("../../lib/analytics", async (original) => ({ ...(await original()), track: vi.fn() }));

interface RouteModule {
  default: ComponentType;
  meta: () => MetaDescriptor[];
}
const modules = import.meta.glob<RouteModule>("./routes/*.tsx", { eager: true });

function moduleFor(path: string): RouteModule {
  const route = marketingRoutes.find((candidate) => `/${candidate.path}` === path)!;
  const module = modules[`./${route.file.replace("features/marketing/", "")}`];
  if (!module) throw new Error(`no module for ${path}`);
  return module;
}

/** Routes a visitor can reach from these pages outside the marketing feature. */
const otherPublicRoutes = ["/pricing", "/signin", "/signup", "/privacy", "/terms", "/support", "/download"];
const knownPaths = new Set([...marketingPaths, ...otherPublicRoutes]);

function renderPath(path: string) {
  const router = routerWithProviders(
    marketingRoutes.map((route) => ({ path: `/${route.path}`, Component: moduleFor(`/${route.path}`).default })),
    path,
  );
  return render(<RouterProvider router={router} />);
}

function pageFor(path: string): MarketingPage {
  return marketingPages.find((page) => page.paths.some((entry) => entry.path === path))!;
}

function checkLinks(container: HTMLElement) {
  const anchors = [...container.querySelectorAll("a[href]")] as HTMLAnchorElement[];
  expect(anchors.length).toBeGreaterThan(10);
  for (const anchor of anchors) {
    const href = anchor.getAttribute("href")!;
    if (href.startsWith("/")) {
      expect(knownPaths.has(href.split(/[?#]/)[0]!), `internal link ${href}`).toBe(true);
    } else if (href.startsWith("mailto:") || href.startsWith("?")) {
      continue; // mail, or this page with other parameters (the pricing switch's options)
    } else {
      expect(href, "external links use https").toMatch(/^https:\/\//);
      expect(anchor.target, `${href} opens in a new tab`).toBe("_blank");
      expect(anchor.rel.split(" ").sort(), `${href} rel`).toEqual(["noopener", "noreferrer"]);
    }
  }
}

const landingPagePaths = marketingPaths.filter((path) => path !== "/");

describe.each(landingPagePaths)("%s", (path) => {
  const page = pageFor(path);

  it("renders its heading and its content", async () => {
    const { container } = renderPath(path);
    expect(await screen.findByRole("heading", { level: 1, name: page.h1 })).toBeInTheDocument();
    expect(container).toHaveTextContent(page.heroCopy);
    for (const card of page.features.cards) {
      expect(screen.getByRole("heading", { level: 3, name: card.title })).toBeInTheDocument();
      expect(container).toHaveTextContent(card.body);
    }
    expect(screen.getByRole("heading", { name: page.proof.heading })).toBeInTheDocument();
    const stats = screen.getByRole("region", { name: page.stats.heading });
    for (const stat of page.stats.items) expect(stats).toHaveTextContent(`${stat.label}${stat.value}`);
    expect(screen.getByRole("heading", { name: page.closing.heading })).toBeInTheDocument();
  });

  it("has the header, closing banner, download button, pricing and footer", async () => {
    renderPath(path);
    const header = await screen.findByRole("banner");
    expect(within(header).getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    expect(within(header).getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/signin");
    expect(within(header).getByRole("link", { name: "Closewise" })).toHaveAttribute("href", "/");
    const closing = screen.getByRole("region", { name: page.closing.heading });
    expect(within(closing).getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/signup");
    expect(screen.getAllByRole("button", { name: /download for mac/i }).length).toBeGreaterThan(0);
    expect(screen.getByRole("region", { name: /pricing/i })).toBeInTheDocument();
    expect(screen.getByRole("contentinfo")).toHaveTextContent("Windows: coming soon");
  });

  it("has only links that resolve: known routes inside, https in a new tab outside", async () => {
    const { container } = renderPath(path);
    await screen.findByRole("heading", { level: 1 });
    checkLinks(container);
    for (const article of page.articles?.links ?? []) {
      expect(screen.getByRole("link", { name: new RegExp(article.title, "i") })).toHaveAttribute("href", article.url);
    }
  });

  it("points its canonical link at the page's first path, with this path's own title", () => {
    const meta = moduleFor(path).meta();
    const entry = page.paths.find((candidate) => candidate.path === path)!;
    expect(meta).toContainEqual({ title: entry.title });
    expect(meta).toContainEqual({ name: "description", content: entry.description });
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: `https://closewise.app${page.paths[0].path}` });
  });
});

describe("/", () => {
  it("renders the top bar, hero, demo, pricing and footer", async () => {
    const { container } = renderPath("/");
    expect(await screen.findByRole("heading", { level: 1, name: landing.h1 })).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Product demo" })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: /pricing/i })).toBeInTheDocument();
    expect(screen.getByRole("contentinfo")).toBeInTheDocument();
    checkLinks(container);
  });

  it("has its own canonical link and title", () => {
    const meta = moduleFor("/").meta();
    expect(meta).toContainEqual({ title: landing.path.title });
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://closewise.app/" });
  });
});

describe("the footer", () => {
  it("links every public page", async () => {
    renderPath("/ai-sales-hints");
    const footer = await screen.findByRole("contentinfo");
    const hrefs = within(footer)
      .getAllByRole("link")
      .map((link) => link.getAttribute("href"));
    const expected = ["/", "/pricing", "/signin", "/signup", ...marketingPages.map((page) => page.paths[0].path)];
    for (const path of expected) expect(hrefs, path).toContain(path);
  });
});

describe("/best-ai-for-sales-teams", () => {
  it("compares Closewise with generic AI tools and basic CRM AI in a table", async () => {
    renderPath("/best-ai-for-sales-teams");
    const table = await screen.findByRole("table");
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((cell) => cell.textContent);
    expect(headers).toEqual(["Capability", "Closewise", "Generic AI tools", "Basic CRM AI"]);
    expect(within(table).getByRole("rowheader", { name: "Hints during live calls" })).toBeInTheDocument();
  });
});
