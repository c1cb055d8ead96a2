#!/usr/bin/python3
"""Runs a command against real, throwaway Tanbo servers.

usage: with-server.py --server BIN --mode single|cluster [--server-arg ARG]... -- CMD ARGS...

single:  one tanbo-server on SQLite in a temporary data directory.
cluster: a redis-server and a PostgreSQL cluster (initdb in a temporary directory), and two
         tanbo-server nodes sharing them.

CMD runs with TANBO_URL (the first node's WebSocket URL), TANBO_URL2 (the second node's, cluster
only) and TANBO_HTTP (the first node's http://host:port) in its environment. Every server is then
stopped (tanbo-server with SIGTERM, and it must exit 0) and every temporary file removed, whatever
happened. The exit status is CMD's, or 1 when CMD passed but a server failed. Without Redis or
PostgreSQL it fails, or exits 77 (skipped) under TANBO_ALLOW_MISSING=1 (or the test suite's
TANBO_TEST_ALLOW_MISSING=1).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

SKIPPED = 77
SERVER_START_WAIT = 60.0  # seconds: a sanitized build on a loaded machine starts slowly
SERVER_STOP_WAIT = 15.0  # seconds, as every test of the suite allows
HERE = Path(__file__).resolve().parent
SOURCE_DIR = HERE.parent.parent


class MissingService(Exception):
    """A service this mode needs is not installed here."""


class StartFailure(Exception):
    """A server did not start."""


def log(text: str) -> None:
    print(f"with-server: {text}", file=sys.stderr, flush=True)


def die_with_parent() -> None:
    """In the child before exec: killed when this launcher dies, even by SIGKILL (a timeout)."""
    PR_SET_PDEATHSIG = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def free_port() -> int:
    """A port the kernel just said is free (bound, then released: a small race we accept)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def find_program(name: str, extra_dirs: list[str]) -> Optional[str]:
    path = os.environ.get("PATH", "").split(os.pathsep) + extra_dirs
    for directory in path:
        candidate = os.path.join(directory, name)
        if directory and os.access(candidate, os.X_OK):
            return candidate
    return None


def wait_until(what: str, ready: Callable[[], bool], alive: Callable[[], bool],
               within: float) -> None:
    deadline = time.monotonic() + within
    while not ready():
        if not alive():
            raise StartFailure(f"{what} exited before it was ready")
        if time.monotonic() > deadline:
            raise StartFailure(f"{what} was not ready within {within:.0f} s")
        time.sleep(0.05)


def tail(path: Path, lines: int = 60) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(text[-lines:])


@dataclass
class Process:
    """A child process whose output goes to a log file."""
    name: str
    args: list[str]
    log_path: Path
    popen: Optional[subprocess.Popen[bytes]] = None

    def start(self) -> None:
        with open(self.log_path, "wb") as out:
            try:
                self.popen = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, stdout=out,
                                              stderr=subprocess.STDOUT,
                                              preexec_fn=die_with_parent)
            except OSError as error:
                raise StartFailure(f"{self.name}: cannot run {self.args[0]}: {error}") from None

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def stop(self, sig: int = signal.SIGTERM, within: float = SERVER_STOP_WAIT) -> Optional[int]:
        """Sends `sig`, waits; the exit status, or None when it had to be killed."""
        if self.popen is None:
            return 0
        if self.popen.poll() is not None:
            return self.popen.returncode
        self.popen.send_signal(sig)
        try:
            return self.popen.wait(within)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
            return None


@dataclass
class TanboNode:
    process: Process
    port: int = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_listening(self) -> None:
        marker = "listening on 127.0.0.1:"

        def port_logged() -> bool:
            for line in self.process.log_path.read_text(errors="replace").splitlines():
                if marker in line:
                    rest = line[line.rindex(":") + 1:]
                    digits = rest[:len(rest) - len(rest.lstrip("0123456789"))]
                    self.port = int(digits)
                    return True
            return False

        wait_until(self.process.name, port_logged, self.process.alive, SERVER_START_WAIT)


@dataclass
class Servers:
    """Everything started, stopped in reverse order by close()."""
    root: Path
    server: str
    web_dir: str
    extra_args: list[str]
    nodes: list[TanboNode] = field(default_factory=list)
    others: list[Process] = field(default_factory=list)
    cleanups: list[Callable[[], None]] = field(default_factory=list)

    def start_node(self, name: str, flags: list[str]) -> TanboNode:
        data = self.root / name
        data.mkdir(mode=0o700)
        args = [self.server, "--bind", "127.0.0.1", "--port", "0", "--threads", "2",
                "--data-dir", str(data), "--web-dir", self.web_dir, *flags, *self.extra_args]
        node = TanboNode(Process(name, args, self.root / f"{name}.log"))
        self.nodes.append(node)
        node.process.start()
        node.wait_listening()
        return node

    def start_redis(self) -> int:
        binary = find_program("redis-server", ["/usr/bin", "/usr/sbin", "/usr/local/bin"])
        if binary is None:
            raise MissingService("redis-server is not installed (tools/install-deps.sh --test)")
        port = free_port()
        directory = self.root / "redis"
        directory.mkdir()
        redis = Process("redis", [binary, "--port", str(port), "--bind", "127.0.0.1",
                                  "--save", "", "--appendonly", "no", "--dir", str(directory)],
                        self.root / "redis.log")
        self.others.append(redis)
        redis.start()
        wait_until("redis-server", lambda: redis_answers(port), redis.alive, 10)
        return port

    def start_postgres(self) -> str:
        """A PostgreSQL cluster listening on a Unix socket in its directory only: its URL."""
        bin_dir = postgres_bin_dir()
        directory = self.root / "pg"
        directory.mkdir()
        as_user: list[str] = []
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: it runs as the user postgres.
            try:
                postgres = pwd.getpwnam("postgres")
            except KeyError:
                raise MissingService("running as root, and there is no user postgres to run "
                                     "PostgreSQL as") from None
            os.chown(directory, postgres.pw_uid, postgres.pw_gid)
            self.root.chmod(0o755)
            as_user = ["runuser", "-u", "postgres", "--"]
        data = directory / "data"

        def run(what: str, args: list[str]) -> None:
            with open(directory / f"{what}.log", "ab") as out:
                done = subprocess.run(as_user + args, stdin=subprocess.DEVNULL, stdout=out,
                                      stderr=subprocess.STDOUT, timeout=120)
            if done.returncode != 0:
                raise StartFailure(f"PostgreSQL's {what} failed:\n"
                                   + tail(directory / f"{what}.log"))

        run("initdb", [f"{bin_dir}/initdb", "-D", str(data), "-A", "trust", "-U", "tanbo",
                       "--no-sync", "-E", "UTF8", "--no-locale"])
        options = f"-k {directory} -c listen_addresses='' -c fsync=off -c max_connections=60"
        run("pg_ctl", [f"{bin_dir}/pg_ctl", "-D", str(data), "-l", str(directory / "server.log"),
                       "-w", "-o", options, "start"])
        def stop() -> None:
            subprocess.run(as_user + [f"{bin_dir}/pg_ctl", "-D", str(data), "-m", "immediate",
                                      "-w", "stop"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60,
                           check=False)

        self.cleanups.append(stop)
        run("createdb", [f"{bin_dir}/createdb", "-h", str(directory), "-U", "tanbo", "tanbo"])
        return f"postgresql:///tanbo?host={directory}&user=tanbo"

    def close(self) -> bool:
        """Stops everything; False when a tanbo-server did not exit 0 on SIGTERM."""
        clean = True
        for node in reversed(self.nodes):
            status = node.process.stop()
            if status != 0:
                clean = False
                ending = "had to be killed" if status is None else f"exited {status}"
                log(f"{node.process.name} {ending} after SIGTERM; its log:\n"
                    + tail(node.process.log_path, 200))
        for process in reversed(self.others):
            process.stop(signal.SIGTERM, 10)
        for cleanup in reversed(self.cleanups):
            with contextlib.suppress(Exception):
                cleanup()
        return clean

    def show_logs(self) -> None:
        for node in self.nodes:
            log(f"the end of {node.process.name}'s log:\n" + tail(node.process.log_path))


def redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def postgres_bin_dir() -> str:
    chosen = os.environ.get("TANBO_TEST_PG_BIN")
    candidates = [chosen] if chosen else ["/usr/lib/postgresql/15/bin"]
    if not chosen:
        installed = Path("/usr/lib/postgresql").glob("*/bin/initdb")
        candidates += sorted((str(p.parent) for p in installed), reverse=True)
    for directory in candidates:
        if os.access(f"{directory}/initdb", os.X_OK) and os.access(f"{directory}/pg_ctl", os.X_OK):
            return directory
    raise MissingService("PostgreSQL's initdb and pg_ctl are not installed "
                         "(tools/install-deps.sh --test; another version: TANBO_TEST_PG_BIN)")


def start(servers: Servers, mode: str) -> dict[str, str]:
    if mode == "single":
        node = servers.start_node("node1", [])
        return {"TANBO_URL": node.url, "TANBO_HTTP": node.http}
    redis_port = servers.start_redis()
    store = servers.start_postgres()
    nodes = [servers.start_node(name, ["--cluster", f"redis://127.0.0.1:{redis_port}",
                                       "--node-id", name, "--store", store])
             for name in ("node1", "node2")]
    return {"TANBO_URL": nodes[0].url, "TANBO_URL2": nodes[1].url, "TANBO_HTTP": nodes[0].http}


@contextlib.contextmanager
def signals_as_exit() -> Iterator[None]:
    """SIGTERM and SIGHUP end the launcher through its clean-up, as Ctrl-C does."""
    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = {sig: signal.signal(sig, leave) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run_command(command: list[str], env: dict[str, str]) -> int:
    """CMD's exit status (128 + N when signal N ended it); stopped if the launcher is."""
    child = subprocess.Popen(command, env=env)
    try:
        status = child.wait()
    finally:
        if child.poll() is None:
            child.terminate()
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
    return status if status >= 0 else 128 - status


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the tanbo-server binary")
    parser.add_argument("--mode", choices=("single", "cluster"), default="single")
    parser.add_argument("--web-dir", default=str(SOURCE_DIR / "web"))
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="one more argument for every tanbo-server (repeat it)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.command[:1] == ["--"]:
        args.command = args.command[1:]
    if not args.command:
        parser.error("no command given after --")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="tanbo-clients-"))
    servers = Servers(root, os.path.abspath(args.server), args.web_dir, args.server_arg)
    status = 1
    try:
        with signals_as_exit():
            try:
                env = start(servers, args.mode)
            except MissingService as missing:
                allowed = "1" in (os.environ.get("TANBO_ALLOW_MISSING"),
                                  os.environ.get("TANBO_TEST_ALLOW_MISSING"))
                log(f"{missing}" + ("; skipped" if allowed
                                    else " (TANBO_ALLOW_MISSING=1 skips instead)"))
                return SKIPPED if allowed else 1
            except StartFailure as failure:
                log(str(failure))
                servers.show_logs()
                return 1
            status = run_command(args.command, {**os.environ, **env})
            if status != 0:
                log(f"{args.command[0]} exited {status}")
                servers.show_logs()
    finally:
        if not servers.close() and status == 0:
            status = 1
        shutil.rmtree(root, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
