//! `closewise-desktop`: the desktop client from a terminal, for trying it and for end-to-end tests.

mod opt;
mod run;

use std::process::ExitCode;

use clap::Parser;

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let opt = opt::Opt::parse();
    match run::run(opt).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
    }
}
