import { act, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeIntersectionObserver, installIntersectionObserver } from "../testing/observers";
import { DemoSection } from "./DemoSection";
import { demoScript } from "./script";

vi.mock("../../../lib/analytics", () => ({ track: vi.fn() }));

beforeEach(() => installIntersectionObserver());
afterEach(() => vi.unstubAllGlobals());

describe("the demo block", () => {
  it("prerenders a still with the first question, its hint and its e-mail draft", () => {
    const html = renderToString(<DemoSection />);
    expect(html).toContain(demoScript[0].question);
    expect(html).toContain(demoScript[0].suggestion);
    expect(html).toContain(demoScript[0].email.subject);
    expect(html).not.toContain('data-testid="demo-player"');
  });

  it("keeps every exchange laid out in one cell, so switching questions never changes its height", () => {
    const html = renderToString(<DemoSection />);
    for (const exchange of demoScript) expect(html).toContain(exchange.question);
    expect(html.match(/col-start-1 row-start-1/g)).toHaveLength(demoScript.length);
  });

  it("loads the animated player only once the block nears the viewport", async () => {
    render(<DemoSection />);
    expect(screen.queryByTestId("demo-player")).not.toBeInTheDocument();
    act(() => FakeIntersectionObserver.setVisible(true));
    expect(await screen.findByTestId("demo-player")).toBeInTheDocument();
  });
});
