use std::process::ExitCode;

fn main() -> ExitCode {
    mailclient::cli::run()
}
