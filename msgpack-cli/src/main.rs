//! `msgpack`: see the library's documentation (src/lib.rs).

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    msgpack_cli::main()
}
