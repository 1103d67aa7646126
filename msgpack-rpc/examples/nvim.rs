//! Embeds Neovim (`nvim --embed --headless --clean`) over its stdin and
//! stdout, prints its version and API level through our client, then
//! exits.
//!
//! ```text
//! cargo run -p msgpack-rpc --example nvim
//! ```

use msgpack_rpc::Builder;
use serde::Deserialize;
use tokio::process::Command;

/// The part of `nvim_get_api_info`'s reply printed here; the rest of it
/// (functions, types, events) is skipped without being decoded.
#[derive(Deserialize)]
struct ApiInfo {
    version: Version,
}

#[derive(Deserialize)]
struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    api_level: u64,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (nvim, mut child) =
        Builder::new().spawn(Command::new("nvim").args(["--embed", "--headless", "--clean"]))?;
    let (channel, info): (u64, ApiInfo) = nvim.call("nvim_get_api_info", ()).await?;
    let Version {
        major,
        minor,
        patch,
        api_level,
    } = info.version;
    println!("Neovim {major}.{minor}.{patch}, API level {api_level} (our channel: {channel})");
    nvim.notify("nvim_command", ("qall!",)).await?;
    child.wait().await?;
    Ok(())
}
