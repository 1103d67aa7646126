//! `msgpack completions SHELL`.

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::error::Result;

pub fn run(args: &CompletionsArgs) -> Result<()> {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut Cli::command(), "msgpack", &mut out);
    Ok(())
}
