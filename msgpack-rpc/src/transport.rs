//! The byte streams a connection runs on: TCP, Unix sockets, and a child
//! process's stdin and stdout.

use std::io;
use std::process::Stdio;

use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::process::{Child, Command};

use crate::{Builder, Connection};

impl Builder {
    /// A connection over a TCP stream (Nagle's algorithm off: calls are
    /// small and waited for).
    pub fn tcp(&self, stream: TcpStream) -> Connection {
        let _ = stream.set_nodelay(true);
        let (reader, writer) = stream.into_split();
        self.connect(reader, writer)
    }

    /// Connects to `addr` over TCP.
    pub async fn connect_tcp(&self, addr: impl ToSocketAddrs) -> io::Result<Connection> {
        Ok(self.tcp(TcpStream::connect(addr).await?))
    }

    /// Serves every connection `listener` accepts, each on its own tasks,
    /// until accepting fails.
    pub async fn serve_tcp(&self, listener: TcpListener) -> io::Result<()> {
        loop {
            let (stream, _) = listener.accept().await?;
            self.tcp(stream);
        }
    }

    /// A connection over a Unix socket stream.
    #[cfg(unix)]
    pub fn unix(&self, stream: tokio::net::UnixStream) -> Connection {
        let (reader, writer) = stream.into_split();
        self.connect(reader, writer)
    }

    /// Connects to the Unix socket at `path` (Neovim's `--listen`
    /// address, for one).
    #[cfg(unix)]
    pub async fn connect_unix(&self, path: impl AsRef<std::path::Path>) -> io::Result<Connection> {
        Ok(self.unix(tokio::net::UnixStream::connect(path).await?))
    }

    /// Spawns `command` with piped stdin and stdout and connects to it
    /// over them, as Neovim is embedded (`nvim --embed`). Stderr is left
    /// as `command` has it. The child is killed when the returned
    /// [`Child`] is dropped.
    pub fn spawn(&self, command: &mut Command) -> io::Result<(Connection, Child)> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        Ok((self.connect(stdout, stdin), child))
    }
}
