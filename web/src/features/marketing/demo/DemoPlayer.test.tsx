import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FakeIntersectionObserver,
  installIntersectionObserver,
  setPageHidden,
  setPrefersReducedMotion,
} from "../testing/observers";
import DemoPlayer from "./DemoPlayer";
import { demoScript } from "./script";
import { DEMO_CYCLE_MS, DEMO_STEP_MS } from "./timing";

const track = vi.hoisted(() => vi.fn());
vi.mock("../../../lib/analytics", () => ({ track }));

function activeQuestion(): number {
  const pressed = within(screen.getByRole("group", { name: "Customer questions" }))
    .getAllByRole("button")
    .findIndex((button) => button.getAttribute("aria-pressed") === "true");
  return pressed;
}

/** Which panels of the active exchange are shown: "question", "hint", "email". */
function shown(): string[] {
  const active = screen.getByTestId("demo-active");
  const visible = ["question"];
  for (const step of ["hint", "email"]) {
    const panel = active.querySelector(`[data-demo-step="${step}"]`);
    if (panel?.classList.contains("opacity-100")) visible.push(step);
  }
  return visible;
}

/**
 * Moves the fake clock forward in small steps that land on a 50 ms grid. React schedules the next
 * timer in an effect after each render, so one big jump would only ever advance the demo once.
 */
function advance(ms: number) {
  let left = ms;
  while (left > 0) {
    const chunk = Math.min(left, 50 - (Date.now() % 50));
    act(() => {
      vi.advanceTimersByTime(chunk);
    });
    left -= chunk;
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
  installIntersectionObserver();
  setPrefersReducedMotion(false);
  setPageHidden(false);
  track.mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the animated demo", () => {
  it("uses the spec's timing: a new question about every 4 s, in 1.5 s display steps", () => {
    expect(DEMO_CYCLE_MS).toBe(4000);
    expect(DEMO_STEP_MS).toBe(1500);
  });

  it("starts on the first question fully shown, like the prerendered still", () => {
    render(<DemoPlayer />);
    expect(activeQuestion()).toBe(0);
    expect(shown()).toEqual(["question", "hint", "email"]);
    expect(screen.getByTestId("demo-active")).toHaveTextContent(demoScript[0].question);
  });

  it("shows each question, then its live hint, then the follow-up e-mail, and moves on every 4 s", () => {
    render(<DemoPlayer />);
    advance(DEMO_CYCLE_MS - 2 * DEMO_STEP_MS); // the rest of the first, already complete, cycle
    expect(activeQuestion()).toBe(1);
    expect(shown()).toEqual(["question"]);
    expect(screen.getByTestId("demo-active")).toHaveTextContent(demoScript[1].question);

    advance(DEMO_STEP_MS - 1);
    expect(shown()).toEqual(["question"]);
    advance(1);
    expect(shown()).toEqual(["question", "hint"]);
    expect(screen.getByTestId("demo-active")).toHaveTextContent(demoScript[1].suggestion);

    advance(DEMO_STEP_MS);
    expect(shown()).toEqual(["question", "hint", "email"]);
    expect(screen.getByTestId("demo-active")).toHaveTextContent(`Subject: ${demoScript[1].email.subject}`);

    advance(DEMO_CYCLE_MS - 2 * DEMO_STEP_MS);
    expect(activeQuestion()).toBe(2);
    expect(shown()).toEqual(["question"]);

    advance(DEMO_CYCLE_MS); // a whole cycle later we are back at the first question
    expect(activeQuestion()).toBe(0);
  });

  it("a full loop through the three questions takes 3 × 4 s", () => {
    render(<DemoPlayer />);
    advance(DEMO_CYCLE_MS - 2 * DEMO_STEP_MS); // question 2 begins
    advance(2 * DEMO_CYCLE_MS - 1);
    expect(activeQuestion()).toBe(2);
    advance(1);
    expect(activeQuestion()).toBe(0);
    expect(shown()).toEqual(["question"]);
  });

  it("pauses while the demo is off screen and resumes when it comes back", () => {
    render(<DemoPlayer />);
    act(() => FakeIntersectionObserver.setVisible(false));
    expect(screen.getByTestId("demo-player")).toHaveAttribute("data-running", "false");
    advance(DEMO_CYCLE_MS * 5);
    expect(activeQuestion()).toBe(0);

    act(() => FakeIntersectionObserver.setVisible(true));
    advance(DEMO_CYCLE_MS - 2 * DEMO_STEP_MS);
    expect(activeQuestion()).toBe(1);
  });

  it("pauses while the browser tab is hidden", () => {
    render(<DemoPlayer />);
    act(() => setPageHidden(true));
    advance(DEMO_CYCLE_MS * 5);
    expect(activeQuestion()).toBe(0);

    act(() => setPageHidden(false));
    advance(DEMO_CYCLE_MS - 2 * DEMO_STEP_MS);
    expect(activeQuestion()).toBe(1);
  });

  it("shows a still version, with every panel visible and no autoplay, to people who prefer reduced motion", () => {
    setPrefersReducedMotion(true);
    render(<DemoPlayer />);
    advance(DEMO_CYCLE_MS * 5);
    expect(activeQuestion()).toBe(0);
    expect(shown()).toEqual(["question", "hint", "email"]);
    expect(screen.queryByRole("button", { name: /pause demo/i })).not.toBeInTheDocument();
  });

  it("lets reduced-motion visitors switch questions by hand", () => {
    setPrefersReducedMotion(true);
    render(<DemoPlayer />);
    fireEvent.click(screen.getByRole("button", { name: "Question 3" }));
    expect(activeQuestion()).toBe(2);
    expect(shown()).toEqual(["question", "hint", "email"]);
  });

  it("records demo_interaction when someone picks a question, and holds it until play is pressed", () => {
    render(<DemoPlayer />);
    fireEvent.click(screen.getByRole("button", { name: "Question 2" }));
    expect(track).toHaveBeenCalledWith("demo_interaction", { action: "select_question", question: 2 });
    expect(shown()).toEqual(["question", "hint", "email"]);
    advance(DEMO_CYCLE_MS * 3);
    expect(activeQuestion()).toBe(1);

    fireEvent.click(screen.getByRole("button", { name: "Play demo" }));
    expect(track).toHaveBeenCalledWith("demo_interaction", { action: "play", question: 2 });
    advance(DEMO_CYCLE_MS - 2 * DEMO_STEP_MS);
    expect(activeQuestion()).toBe(2);
  });

  it("records demo_interaction on pause and stops the cycle", () => {
    render(<DemoPlayer />);
    fireEvent.click(screen.getByRole("button", { name: "Pause demo" }));
    expect(track).toHaveBeenCalledWith("demo_interaction", { action: "pause", question: 1 });
    advance(DEMO_CYCLE_MS * 3);
    expect(activeQuestion()).toBe(0);
  });
});
