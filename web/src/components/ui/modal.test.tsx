//! Where a dialog puts focus when it opens: on its first field, and in a dialog without fields on its
//! first control, never on its Close button unless there is nothing else.

import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Address } from "./Address";
import { Button } from "./Button";
import { Modal } from "./Modal";
import { TextField } from "./TextField";

const noop = () => undefined;

describe("Modal", () => {
  it("opens with focus on its first field", () => {
    render(
      <Modal open onClose={noop} title="Confirm it's you">
        <p>Enter your password to continue.</p>
        <Button variant="secondary">Forgot it?</Button>
        <TextField label="Password" type="password" />
      </Modal>,
    );
    expect(screen.getByLabelText("Password")).toHaveFocus();
  });

  it("opens on its first control when it has no field, and on Close only when it has nothing else", () => {
    const { unmount } = render(
      <Modal open onClose={noop} title="Remove bo@example.com?">
        <Button variant="secondary">Cancel</Button>
        <Button variant="danger">Remove</Button>
      </Modal>,
    );
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();
    unmount();
    render(
      <Modal open onClose={noop} title="Done">
        <p>Nothing to do here.</p>
      </Modal>,
    );
    expect(screen.getByRole("button", { name: "Close" })).toHaveFocus();
  });
});

describe("Address", () => {
  it("may wrap after the @ and nowhere else", () => {
    const { container } = render(<Address email="rep1@acme-sales.test" />);
    expect(container.innerHTML).toBe('<span class="break-words">rep1@<wbr>acme-sales.test</span>');
  });
});
