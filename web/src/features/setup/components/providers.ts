//! The identity providers the setup page guides through: for each, the names its admin console gives
//! our values (what IT pastes there) and where it shows the values IT pastes back here.

export type ProviderId = "okta" | "entra" | "google" | "onelogin" | "saml" | "oidc";

export interface Provider {
  id: ProviderId;
  label: string;
  protocol: "saml" | "oidc";
  /** Where to start in the provider's console. */
  start: string;
  /** Our values under the names the provider's console uses, in its order. */
  ours: { label: string; value: "acs_url" | "sp_entity_id" | "metadata_url" | "redirect_uri" }[];
  /** Where the provider shows what comes back here. */
  back: string;
}

export const PROVIDERS: readonly Provider[] = [
  {
    id: "okta",
    label: "Okta",
    protocol: "saml",
    start: "In the Okta Admin Console: Applications → Create App Integration → SAML 2.0.",
    ours: [
      { label: "Single sign-on URL", value: "acs_url" },
      { label: "Audience URI (SP Entity ID)", value: "sp_entity_id" },
    ],
    back: "On the app's Sign On tab, copy the Metadata URL.",
  },
  {
    id: "entra",
    label: "Microsoft Entra ID",
    protocol: "saml",
    start: "In the Microsoft Entra admin center: Enterprise applications → New application → Create your own application → SAML.",
    ours: [
      { label: "Identifier (Entity ID)", value: "sp_entity_id" },
      { label: "Reply URL (Assertion Consumer Service URL)", value: "acs_url" },
    ],
    back: "Under SAML Certificates, copy the App Federation Metadata Url.",
  },
  {
    id: "google",
    label: "Google Workspace",
    protocol: "saml",
    start: "In the Google Admin console: Apps → Web and mobile apps → Add app → Add custom SAML app.",
    ours: [
      { label: "ACS URL", value: "acs_url" },
      { label: "Entity ID", value: "sp_entity_id" },
    ],
    back: "On the Google Identity Provider details step, download the IdP metadata and upload it here.",
  },
  {
    id: "onelogin",
    label: "OneLogin",
    protocol: "saml",
    start: "In OneLogin: Applications → Add App → SAML Custom Connector (Advanced).",
    ours: [
      { label: "ACS (Consumer) URL", value: "acs_url" },
      { label: "Audience (EntityID)", value: "sp_entity_id" },
    ],
    back: "On the app's SSO tab, copy the Issuer URL (its metadata URL).",
  },
  {
    id: "saml",
    label: "Other SAML",
    protocol: "saml",
    start: "In your identity provider, add a SAML 2.0 application (HTTP-POST binding, signed responses or assertions).",
    ours: [
      { label: "ACS URL (Assertion Consumer Service, HTTP-POST)", value: "acs_url" },
      { label: "Entity ID (Audience)", value: "sp_entity_id" },
      { label: "Service provider metadata URL", value: "metadata_url" },
    ],
    back: "Copy your identity provider's metadata URL, or download its metadata XML and upload it here.",
  },
  {
    id: "oidc",
    label: "Other OpenID Connect",
    protocol: "oidc",
    start: "In your identity provider, add a web application using OpenID Connect (authorization code flow).",
    ours: [{ label: "Redirect URI", value: "redirect_uri" }],
    back: "Copy the issuer URL, the client ID and the client secret it gives.",
  },
];
