import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

async function main() {
  // `npm run dev:mock`: answer /api from MSW in the browser before anything fetches.
  if (import.meta.env.VITE_MOCK_API === "true") {
    const { startMockApi } = await import("./testing/browser");
    await startMockApi();
  }
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

void main();
