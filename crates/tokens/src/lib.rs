//! The signed tokens of Closewise, defined once for the server that signs them and the desktop app
//! that checks them offline: EdDSA (Ed25519) compact JWS, their claims, the JWKS that publishes the
//! key, and the checks a token passes before its claims are read.
//!
//! | module | what |
//! |---|---|
//! | `jws` | the header, signing, the signature and header checks; why a token is refused |
//! | `jwks` | the published keys (`/.well-known/jwks.json`) and the pinned ones of the app |
//! | `access` | the access token: its claims and its check (not its expiry: the server's clock decides) |
//! | `entitlement` | the entitlement token: its claims, its check with clock skew, fresh and grace |
//! | `signer` | the server's key: signs both tokens, names its `kid`, publishes its JWKS |
//!
//! Signing and checking use ed25519-dalek alone, and a token is the same bytes jsonwebtoken wrote
//! for the same key and claims (the header's fields in its order): apps in use verify the tokens of
//! this server, and the server the tokens it signed before (see the fixtures in `compat`).

pub mod access;
pub mod entitlement;
mod jwks;
mod jws;
mod signer;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

#[cfg(test)]
mod compat;

pub use jwks::{Jwk, Jwks};
pub use jws::{KeySet, Rejection};
pub use signer::Signer;
