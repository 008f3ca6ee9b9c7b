import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { LegalNotice } from "./LegalNotice";

describe("LegalNotice", () => {
  it("says that creating an account means agreeing, and links the terms and the privacy policy", () => {
    const router = createMemoryRouter([{ path: "/signup", Component: LegalNotice }], { initialEntries: ["/signup"] });
    const { container } = render(<RouterProvider router={router} />);
    expect(container).toHaveTextContent("By creating an account you agree to our Terms of Service and Privacy Policy.");
    expect(screen.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
    expect(screen.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  });
});
