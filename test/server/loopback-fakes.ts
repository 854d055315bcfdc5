import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { readFrame } from "../../src/core/server/thin-protocol.js";
import { g } from "../helpers/repo.js";
import { scratch, stateDir, watchServer } from "./support.js";

/** Processes and listeners the loopback tests start; `closeFakes` ends them after the file. */
const sleepers: ChildProcess[] = [];
const fakes: Server[] = [];
export function closeFakes(): void {
  for (const s of sleepers.splice(0)) s.kill();
  for (const f of fakes.splice(0)) f.close();
}

export function liveProcess(): string {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return String(child.pid);
}

export function newRepo(): string {
  const repo = join(scratch(), "repo");
  mkdirSync(repo);
  g(repo, "init", "-q", "-b", "main");
  g(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  watchServer(repo);
  return repo;
}

/** A PATH holding only the named programs: what the client may find decides its way. */
export function pathWith(...programs: string[]): string {
  const dir = join(scratch("tandem-path-"), "bin");
  mkdirSync(dir);
  for (const p of programs) {
    const found = ["/usr/bin", "/bin", "/usr/local/bin"].map((d) => join(d, p));
    const target = found.find((f) => {
      try {
        return readFileSync(f).length > 0;
      } catch {
        return false;
      }
    });
    if (!target) throw new Error(`${p} is not installed`);
    symlinkSync(target, join(dir, p));
  }
  return dir;
}

export const loopback = (repo: string) => {
  const [port, token] = readFileSync(join(stateDir(repo), "serve.tcp"), "utf8")
    .trim()
    .split(" ");
  return { port: Number(port), token: token! };
};

/** Points `repo`'s published port at `port`, keeping the real token. */
export function publishPort(repo: string, port: number): void {
  writeFileSync(join(stateDir(repo), "serve.tcp"), `${port} ${loopback(repo).token}\n`, { mode: 0o600 });
}

/** Listens on a loopback port; `onConnection` gets each client's socket. */
export async function listener(onConnection: (c: Socket) => void): Promise<number> {
  const server = createServer((c) => {
    // A client that closes first (as a refusing thin client does) is no failure of the fake.
    c.on("error", () => {});
    onConnection(c);
  });
  fakes.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return (server.address() as { port: number }).port;
}

/**
 * A stand-in for the server that passes the handshake the way only a process of this user can
 * (it reads the key the client left in serve.hello), then hands each whole request's body to
 * `answer`, with the number of reads the request took.
 */
export function provingListener(
  repo: string,
  answer: (request: Buffer, c: Socket, reads: number) => void,
): Promise<number> {
  return listener((c) => {
    let data = Buffer.alloc(0);
    let proved = false;
    let reads = 0;
    c.on("data", (d: Buffer) => {
      data = Buffer.concat([data, d]);
      if (proved) reads++;
      if (!proved) {
        const end = data.indexOf("\n");
        if (end < 0) return;
        const name = data.toString("latin1", "tandem-hello 1 ".length, end);
        const key = readFileSync(join(stateDir(repo), "serve.hello", name), "latin1");
        c.write(`tandem-proof ${key}\n`);
        proved = true;
        data = data.subarray(end + 1);
        if (data.length > 0) reads++;
      }
      const frame = readFrame(data, 1 << 26);
      if (frame.kind === "whole") answer(frame.body, c, reads);
      else if (frame.kind === "bad") c.end(httpAnswer("400 Bad", `${frame.why}\n`));
    });
  });
}

/** An HTTP response as the server writes it, the body in bytes. */
export function httpAnswer(status: string, body: string): string {
  return `HTTP/1.1 ${status}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}
