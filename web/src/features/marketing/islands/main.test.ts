import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeIntersectionObserver, installIntersectionObserver } from "../testing/observers";

const mounted = vi.hoisted(() => ({ calls: [] as [string, Element, unknown][], shell: 0 }));
const island = (name: string) => ({ mount: (element: Element, props: unknown) => mounted.calls.push([name, element, props]) });
vi.mock("./nav", () => island("nav"));
vi.mock("./download", () => island("download"));
vi.mock("./demo", () => island("demo"));
vi.mock("./pricing", () => island("pricing"));
vi.mock("./shell", () => ({ start: () => (mounted.shell += 1) }));

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  installIntersectionObserver();
  mounted.calls = [];
  mounted.shell = 0;
  document.body.innerHTML = `
    <div data-island="nav" class="contents"><header>bar</header></div>
    <div data-island="download" data-props='{"variant":"secondary"}' class="contents"><a href="/download">Download for Mac</a></div>
    <div data-island="pricing" data-props='{"title":"Plans"}' class="contents"><section>cards</section></div>
    <div data-island="unknown" class="contents"><p>left alone</p></div>`;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the islands script", () => {
  it("starts the shell and the navigation at once, the others on sight, each with its props", async () => {
    const { startIslands } = await import("./main"); // runs once on import, as on a page
    await settle();
    mounted.calls = [];
    mounted.shell = 0;
    FakeIntersectionObserver.instances = [];
    startIslands();
    await settle();
    expect(mounted.shell).toBe(1);
    expect(mounted.calls.map(([name]) => name)).toEqual(["nav"]);
    expect(mounted.calls[0]![1]).toBe(document.querySelector('[data-island="nav"]'));

    // The boxes have display: contents, so their first element is what is observed.
    const observed = FakeIntersectionObserver.instances.flatMap((o) => [...o.elements]);
    expect(observed.map((el) => el.tagName)).toEqual(["A", "SECTION"]);

    FakeIntersectionObserver.setVisible(true);
    await settle();
    expect(mounted.calls.map(([name, , props]) => [name, props])).toEqual([
      ["nav", {}],
      ["download", { variant: "secondary" }],
      ["pricing", { title: "Plans" }],
    ]);
  });

  it("renders everything at once where IntersectionObserver is missing", async () => {
    const { startIslands } = await import("./main");
    await settle();
    vi.stubGlobal("IntersectionObserver", undefined);
    mounted.calls = [];
    startIslands();
    await settle();
    expect(mounted.calls.map(([name]) => name)).toEqual(["nav", "download", "pricing"]);
  });
});
