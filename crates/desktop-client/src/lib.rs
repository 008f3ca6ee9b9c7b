//! The Closewise desktop client: what the desktop app embeds to sign in (browser with PKCE, or a
//! device code), keep its session (behind [`TokenStore`]), know what the user may do
//! ([`Client::entitlements`], verified offline against the server's keys) and meter calls.
//!
//! ```no_run
//! # async fn demo() -> Result<(), closewise_desktop_client::Error> {
//! use closewise_desktop_client::{Client, FileStore, SignInOptions};
//! let client = Client::new("https://app.closewise.com", FileStore::new("session.json"))?;
//! client
//!     .sign_in_with_browser(&SignInOptions::default(), |url| {
//!         println!("Open: {url}");
//!         Ok(())
//!     })
//!     .await?;
//! let now = client.entitlements().await?;
//! if now.may_start_call() {
//!     let call = client.start_call(None).await?;
//!     client.heartbeat(&call.call_id).await?;
//!     client.end_call(&call.call_id).await?;
//! }
//! # Ok(()) }
//! ```
//!
//! The contract is docs/api.md, "The desktop app" and "Entitlements and calls".

mod calls;
mod client;
pub mod entitlement;
mod entitlements;
mod error;
#[cfg(feature = "keyring")]
mod keyring_store;
mod loopback;
mod pkce;
pub mod policy;
mod signin;
mod store;
pub mod trust;

pub use calls::{
    check_client_call_id, valid_client_call_id, EndedCall, Heartbeat, StartedCall,
    HEARTBEAT_SECONDS,
};
pub use client::{set_clock_offset, Client, Logout, LogoutScope, User, CLIENT_ID};
pub use entitlements::{offline_entitlements, CallAllowance, Entitlements, Source};
pub use error::{Error, Result};
#[cfg(feature = "keyring")]
pub use keyring_store::KeyringStore;
pub use loopback::{parse_request, Callback};
pub use pkce::{random_state, Pkce};
pub use policy::Policy;
pub use signin::{DeviceAuthorization, SignInOptions};
pub use store::{FileStore, MemoryStore, StoredSession, TokenStore};
