//! A stand-in for the browser's WebAuthn (jsdom has none): `navigator.credentials.create/get` answer a
//! credential whose `toJSON()` carries `credentialId`, which the mock API knows a passkey by.

import { vi } from "vitest";

export function fakeCredential(credentialId: string) {
  return {
    id: credentialId,
    type: "public-key",
    toJSON: () => ({ id: credentialId, rawId: credentialId, type: "public-key", response: {}, clientExtensionResults: {} }),
  };
}

/** Installs the fakes; `get` answers `credentialId`'s assertion, `create` a new credential with that id. */
export function installWebAuthn({ credentialId = "cred-1", conditional = false } = {}) {
  const create = vi.fn((_options: CredentialCreationOptions) => Promise.resolve(fakeCredential(credentialId)));
  const get = vi.fn((options: CredentialRequestOptions & { mediation?: string }) =>
    options.mediation === "conditional"
      ? new Promise((_resolve, reject) =>
          options.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        )
      : Promise.resolve(fakeCredential(credentialId)),
  );
  vi.stubGlobal(
    "PublicKeyCredential",
    class {
      static isConditionalMediationAvailable = () => Promise.resolve(conditional);
    },
  );
  Object.defineProperty(navigator, "credentials", { value: { create, get }, configurable: true });
  return { create, get };
}

export function removeWebAuthn() {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "credentials");
}
