import { useSyncExternalStore } from "react";

const noop = () => () => {};

/**
 * False in prerendered HTML and during hydration, true afterwards. Forms on prerendered pages stay
 * disabled until then, so an early submit can never fall back to a native GET that would put the
 * password in the address bar.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
