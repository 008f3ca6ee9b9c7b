import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { PricingSectionContent } from "../../../components/pricing/PricingSection";
import { mountIsland, type IslandProps } from "./mount";

let client: QueryClient | null = null;

/** The app's query defaults (app/providers.tsx), one client for the page. */
function queryClient(): QueryClient {
  client ??= new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
  return client;
}

export function mount(element: Element, props: IslandProps): void {
  mountIsland(
    element,
    <QueryClientProvider client={queryClient()}>
      <PricingSectionContent {...props} />
    </QueryClientProvider>,
  );
}
