//! `closewise`: the operator's tool. Parsing lives in `opt.rs`, running in `lib.rs`.

fn main() -> std::process::ExitCode {
    closewise_cli::main()
}
