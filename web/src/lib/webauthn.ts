//! The browser's WebAuthn calls with the API's JSON encoding (WebAuthn L3: binary fields base64url).
//! Uses `PublicKeyCredential.parse*OptionsFromJSON` and `toJSON()` where the browser has them, and
//! the same conversion by hand where it does not.

import type { AuthenticationResponseJSON, CreationOptionsJSON, RegistrationResponseJSON, RequestOptionsJSON } from "./api/types";

type Json = Record<string, unknown>;

interface JsonCapableStatic {
  parseCreationOptionsFromJSON?: (options: Json) => PublicKeyCredentialCreationOptions;
  parseRequestOptionsFromJSON?: (options: Json) => PublicKeyCredentialRequestOptions;
  isConditionalMediationAvailable?: () => Promise<boolean>;
}

export function fromBase64url(value: string): ArrayBuffer {
  const base64 = value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(value.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

export function toBase64url(buffer: ArrayBuffer | ArrayBufferView): string {
  const bytes =
    buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function staticApi(): JsonCapableStatic | null {
  return typeof PublicKeyCredential === "undefined" ? null : (PublicKeyCredential as unknown as JsonCapableStatic);
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return staticApi() !== null && typeof navigator !== "undefined" && Boolean(navigator.credentials);
}

/** Whether the browser offers passkeys in the e-mail field's autofill (conditional mediation). */
export async function autofillSupported(): Promise<boolean> {
  const api = staticApi();
  if (!api?.isConditionalMediationAvailable || !navigator.credentials) return false;
  try {
    return await api.isConditionalMediationAvailable();
  } catch {
    return false;
  }
}

/** Options sent as `{publicKey: {...}}` are read the same as the bare ones. */
const unwrap = (options: Json): Json =>
  options.publicKey && typeof options.publicKey === "object" ? (options.publicKey as Json) : options;

const withIds = (list: unknown) =>
  Array.isArray(list) ? list.map((c: Json) => ({ ...c, id: fromBase64url(String(c.id)) })) : undefined;

function creationOptions(json: CreationOptionsJSON): PublicKeyCredentialCreationOptions {
  const options = unwrap(json);
  const api = staticApi();
  if (api?.parseCreationOptionsFromJSON) return api.parseCreationOptionsFromJSON(options);
  const user = options.user as Json;
  return {
    ...options,
    challenge: fromBase64url(String(options.challenge)),
    user: { ...user, id: fromBase64url(String(user.id)) },
    excludeCredentials: withIds(options.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions;
}

function requestOptions(json: RequestOptionsJSON): PublicKeyCredentialRequestOptions {
  const options = unwrap(json);
  const api = staticApi();
  if (api?.parseRequestOptionsFromJSON) return api.parseRequestOptionsFromJSON(options);
  return {
    ...options,
    challenge: fromBase64url(String(options.challenge)),
    allowCredentials: withIds(options.allowCredentials),
  } as unknown as PublicKeyCredentialRequestOptions;
}

type WithJson = PublicKeyCredential & { toJSON?: () => Json };

function credentialJson(credential: WithJson): Json {
  if (typeof credential.toJSON === "function") return credential.toJSON() as Json;
  const response = credential.response as AuthenticatorResponse &
    Partial<AuthenticatorAttestationResponse & AuthenticatorAssertionResponse>;
  const body: Json = { clientDataJSON: toBase64url(response.clientDataJSON) };
  if (response.attestationObject) {
    body.attestationObject = toBase64url(response.attestationObject);
    body.transports = response.getTransports?.() ?? [];
  }
  if (response.authenticatorData) body.authenticatorData = toBase64url(response.authenticatorData);
  if (response.signature) body.signature = toBase64url(response.signature);
  if (response.userHandle) body.userHandle = toBase64url(response.userHandle);
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: body,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
  };
}

/** Creates a passkey with the server's options; answers the registration response to send back. */
export async function createPasskey(options: CreationOptionsJSON): Promise<RegistrationResponseJSON> {
  const credential = (await navigator.credentials.create({ publicKey: creationOptions(options) })) as WithJson | null;
  if (!credential) throw new DOMException("No passkey was created", "NotAllowedError");
  return credentialJson(credential);
}

/**
 * Asks for a passkey with the server's options; `conditional` offers it in the e-mail field's autofill
 * and waits until one is picked (or `signal` aborts).
 */
export async function getPasskey(
  options: RequestOptionsJSON,
  { conditional = false, signal }: { conditional?: boolean; signal?: AbortSignal } = {},
): Promise<AuthenticationResponseJSON> {
  const request: CredentialRequestOptions = { publicKey: requestOptions(options), signal };
  if (conditional) (request as CredentialRequestOptions & { mediation: string }).mediation = "conditional";
  const credential = (await navigator.credentials.get(request)) as WithJson | null;
  if (!credential) throw new DOMException("No passkey was chosen", "NotAllowedError");
  return credentialJson(credential);
}

/** The user closed the browser's passkey prompt, or it was aborted: not an error worth a message. */
export const cancelled = (error: unknown) =>
  error instanceof DOMException && (error.name === "NotAllowedError" || error.name === "AbortError");
