//! `msgpack-bench`: how much smaller and faster than JSON, rmp-serde,
//! msgpacker, zerompk and protobuf msgpack-serde is, on the built-in
//! fixtures.
//!
//! ```text
//! cargo run --release -p msgpack-benches --bin msgpack-bench -- --iterations 1000
//! cargo run --release -p msgpack-benches --bin msgpack-bench -- --fixture document --json
//! cargo run --release -p msgpack-benches --bin msgpack-bench -- --types
//! cargo run --release -p msgpack-benches --bin msgpack-bench -- --http
//! cargo run --release -p msgpack-benches --bin msgpack-bench -- --stream
//! cargo run --release -p msgpack-benches --bin msgpack-bench -- --rpc
//! ```

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use msgpack_benches::{chart, fixtures, http, rpc, run, stream, table, types};

/// Compares msgpack-serde with serde_json, rmp-serde, msgpacker, zerompk and prost.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Iterations of each operation (fewer when an operation would exceed
    /// --max-seconds). Times are per iteration, so runs with different
    /// counts compare.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,

    /// Run only this fixture (document, api_profile, logs, mesh, ints).
    #[arg(long)]
    fixture: Vec<String>,

    /// Run only the codecs whose names contain this text (for profiling);
    /// with --rpc, only the stacks (msgpack-rpc, JSON-RPC).
    #[arg(long, default_value = "")]
    codec: String,

    /// The longest one operation may run, in seconds.
    #[arg(long, default_value_t = 0.5)]
    max_seconds: f64,

    /// Print the results as JSON instead of tables.
    #[arg(long)]
    json: bool,

    /// Also write a bar chart of size and time per codec to this SVG file.
    #[arg(long)]
    svg: Option<PathBuf>,

    /// Print the classic per-type table (% of serde_json) instead.
    #[arg(long)]
    types: bool,

    /// Run the HTTP load test of msgpack-axum on loopback instead
    /// (fixtures api_profile and document).
    #[arg(long)]
    http: bool,

    /// Run the stream benchmark instead: msgpack-tokio's codec on the logs
    /// records in 4 KiB chunks, against from_slice record by record.
    #[arg(long)]
    stream: bool,

    /// Run the RPC benchmark instead: msgpack-rpc round trips on loopback
    /// against JSON-RPC over newline-delimited serde_json.
    #[arg(long)]
    rpc: bool,

    /// With --rpc: calls in flight on the one connection.
    #[arg(long, default_value_t = 64)]
    in_flight: usize,

    /// With --rpc: the runtime's threads, client and server sharing them
    /// (1: one current-thread runtime).
    #[arg(long, default_value_t = 2)]
    threads: usize,

    /// With --rpc: rounds, msgpack-rpc and JSON-RPC taking turns.
    #[arg(long, default_value_t = 3)]
    rounds: usize,

    /// With --http: concurrent keep-alive connections.
    #[arg(long, default_value_t = 32)]
    connections: usize,

    /// With --http: the most requests per case (all rounds together);
    /// with --rpc, per case and round.
    #[arg(long, default_value_t = 1_000_000)]
    requests: u64,

    /// With --http: the longest one case runs, in seconds (all rounds
    /// together); with --rpc, per case and round.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,

    /// With --http: decode every reply on the client, not only the first
    /// of each connection and any that differ from it.
    #[arg(long)]
    decode_every_reply: bool,
}

/// Prints `text` and a newline; a closed stdout (`| head`) ends the
/// program quietly instead of panicking.
fn output(text: &str) {
    if writeln!(std::io::stdout(), "{text}").is_err() {
        std::process::exit(0);
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let budget = run::budget(
        args.iterations.max(1),
        Duration::from_secs_f64(args.max_seconds.max(0.001)),
    );
    if args.http {
        return run_http(&args);
    }
    if args.rpc {
        return run_rpc(&args);
    }
    if args.stream {
        let result = stream::run_stream(budget);
        if args.json {
            output(&serde_json::to_string_pretty(&result).expect("results serialize"));
        } else {
            output(&stream::stream_table(&result));
        }
        return ExitCode::SUCCESS;
    }
    if args.types {
        let results = types::run_types(budget);
        if args.json {
            output(&serde_json::to_string_pretty(&results).expect("results serialize"));
        } else {
            output(&types::types_table(&results));
        }
        return ExitCode::SUCCESS;
    }

    let names: Vec<String> = if args.fixture.is_empty() {
        fixtures::NAMES.iter().map(|s| s.to_string()).collect()
    } else {
        args.fixture.clone()
    };
    let mut results = Vec::new();
    for name in &names {
        let result = run::run_fixture(name, budget, &args.codec, |operation| {
            eprint!("\r\x1b[2K{name}: {operation}");
            let _ = std::io::stderr().flush();
        });
        eprint!("\r\x1b[2K");
        match result {
            Some(result) => {
                if !args.json {
                    output(&table::fixture_table(&result));
                }
                results.push(result);
            }
            None => {
                eprintln!(
                    "unknown fixture `{name}`; the fixtures are {}",
                    fixtures::NAMES.join(", ")
                );
                return ExitCode::from(2);
            }
        }
    }
    if args.json {
        output(&serde_json::to_string_pretty(&results).expect("results serialize"));
    }
    if let Some(path) = &args.svg {
        if let Err(error) = chart::write_svg(path, &results) {
            eprintln!("could not write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// `--rpc`: msgpack-rpc against JSON-RPC round trips.
fn run_rpc(args: &Args) -> ExitCode {
    let settings = rpc::Settings {
        in_flight: args.in_flight.max(1),
        calls: args.requests.max(1),
        time: Duration::from_secs_f64(args.seconds.max(0.001)),
        rounds: args.rounds.max(1),
        only: args.codec.clone(),
        threads: args.threads,
    };
    match rpc::run(&settings) {
        Ok(result) if args.json => {
            output(&serde_json::to_string_pretty(&result).expect("results serialize"));
            ExitCode::SUCCESS
        }
        Ok(result) => {
            output(&rpc::rpc_table(&result));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("the RPC benchmark failed: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `--http`: the load test, on the fixtures named (both by default).
fn run_http(args: &Args) -> ExitCode {
    let names: Vec<&str> = if args.fixture.is_empty() {
        http::FIXTURES.to_vec()
    } else {
        args.fixture.iter().map(String::as_str).collect()
    };
    if let Some(name) = names.iter().find(|name| !http::FIXTURES.contains(name)) {
        eprintln!(
            "unknown fixture `{name}` for --http; it serves {}",
            http::FIXTURES.join(", ")
        );
        return ExitCode::from(2);
    }
    let settings = http::Settings {
        connections: args.connections.max(1),
        requests: args.requests.max(1),
        time: Duration::from_secs_f64(args.seconds.max(0.001)),
        decode_every_reply: args.decode_every_reply,
    };
    match http::run(&names, &settings) {
        Ok(results) if args.json => {
            output(&serde_json::to_string_pretty(&results).expect("results serialize"));
            ExitCode::SUCCESS
        }
        Ok(results) => {
            for result in &results {
                output(&http::http_table(result));
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("the HTTP load test failed: {error}");
            ExitCode::FAILURE
        }
    }
}
