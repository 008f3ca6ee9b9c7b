//! "react" for the islands build (vite.islands.config.ts aliases it here): Preact's compatibility layer,
//! plus the React 19 hooks it does not have yet.

import { useCallback, useLayoutEffect, useRef } from "preact/compat";

// preact/compat's types are an `export =` namespace; the module itself has named exports.
// @ts-expect-error TS2498: export * of an `export =` declaration
export * from "preact/compat";
export { default } from "preact/compat";

/** React 19.2's useEffectEvent: a stable function that always calls the latest `fn`. */
export function useEffectEvent<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => Result {
  const latestRef = useRef(fn);
  useLayoutEffect(() => {
    latestRef.current = fn;
  });
  return useCallback((...args: Args) => latestRef.current(...args), []);
}
