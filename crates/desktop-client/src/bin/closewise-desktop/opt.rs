use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Sign in to Closewise, check the plan and meter calls, as the desktop app does.
#[derive(Parser, Debug)]
#[command(name = "closewise-desktop", version)]
pub struct Opt {
    /// The Closewise API's address.
    #[arg(
        long,
        env = "CLOSEWISE_URL",
        default_value = "http://localhost:8080",
        global = true
    )]
    pub base_url: String,
    /// The web app's address (APP_BASE_URL) when it differs from the API's: the sign-in page is
    /// there and entitlement tokens name it as their issuer.
    #[arg(long, env = "CLOSEWISE_APP_URL", global = true)]
    pub app_url: Option<String>,
    /// The session file [default: <config dir>/closewise/desktop-session.json].
    #[arg(long, env = "CLOSEWISE_STORE", global = true)]
    pub store: Option<PathBuf>,
    /// Pretend the clock is this many seconds ahead (to try the offline grace period); never
    /// behind, which would stretch it.
    #[arg(
        long,
        env = "CLOSEWISE_DESKTOP_CLOCK_OFFSET",
        default_value_t = 0,
        hide = true,
        global = true
    )]
    pub clock_offset: u32,
    /// A JWKS file of the keys to trust for entitlement tokens instead of the built-in ones, for a
    /// development server (save its /.well-known/jwks.json). Debug builds only. Not
    /// `CLOSEWISE_ENTITLEMENT_JWKS`: that is the build's own list, a JWKS read at compile time.
    #[arg(long, env = "CLOSEWISE_ENTITLEMENT_JWKS_FILE", global = true)]
    pub entitlement_jwks: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Sign in: in the browser, or with a code to enter on another device (--device).
    Login(Login),
    /// Show who is signed in.
    Whoami,
    /// Show what the plan allows now (offline: from the last verified entitlement).
    Entitlements {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Show the team's policy this app obeys (offline: from the last verified entitlement).
    Policy {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// The region whose consent notice applies (EU, a country such as DE, a US state such as
        /// US-CA).
        #[arg(long, env = "CLOSEWISE_REGION")]
        region: Option<String>,
    },
    /// Start, keep alive and end calls.
    #[command(subcommand)]
    Call(Call),
    /// Sign out and forget the session.
    Logout {
        /// Sign out every device and browser of this account.
        #[arg(long)]
        all: bool,
    },
}

#[derive(Args, Debug)]
pub struct Login {
    /// Sign in with a code entered on another device, instead of this machine's browser.
    #[arg(long)]
    pub device: bool,
    /// Do not open the browser: print the sign-in address (`Open: <url>`) only.
    #[arg(long, conflicts_with = "device")]
    pub no_browser: bool,
    /// How this device is named in the account's device list [default: the host name].
    #[arg(long)]
    pub device_name: Option<String>,
    /// Seconds to wait for the browser sign-in.
    #[arg(long, default_value_t = 300)]
    pub timeout: u64,
}

#[derive(Subcommand, Debug)]
pub enum Call {
    /// Start a call (the same --id again answers the same call).
    Start {
        /// Our id for the call, 1-64 of [A-Za-z0-9_-] [default: a new UUID].
        #[arg(long)]
        id: Option<String>,
        /// The meeting app the assistant attaches to: refused when the team's policy does not
        /// allow it.
        #[arg(long, value_parser = ["zoom", "meet", "teams", "phone"])]
        app: Option<String>,
        /// The region whose consent notice applies.
        #[arg(long, env = "CLOSEWISE_REGION")]
        region: Option<String>,
    },
    /// Tell the server the call goes on (the app does this every 30 s).
    Heartbeat { id: String },
    /// End the call.
    End { id: String },
}
