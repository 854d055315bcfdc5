import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, connect as tcp } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { patient } from "./patience.js";

/**
 * A real nats-server (Debian's package; `.ci/run` installs it) with JetStream, on a free port of
 * 127.0.0.1 and a store in a temp dir: what the NATS engine's tests talk to, never a mock.
 */

export interface NatsServer {
  url: string;
  stop: () => Promise<void>;
}

const BINARY =
  process.env.NATS_SERVER_BIN ??
  (existsSync("/usr/sbin/nats-server") ? "/usr/sbin/nats-server" : "nats-server");

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const port = (s.address() as { port: number }).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = tcp({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      ok(true);
    });
    socket.on("error", () => ok(false));
  });
}

export async function startNats(): Promise<NatsServer> {
  const port = await freePort();
  // Not tempDir(): that is removed after each test, and a server lives through a file's tests.
  const store = mkdtempSync(join(tmpdir(), "tandem-nats-"));
  const child: ChildProcess = spawn(BINARY, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", store], {
    stdio: "ignore",
  });
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited) {
      const gone = new Promise((ok) => child.once("exit", ok));
      child.kill("SIGTERM");
      await gone;
    }
    rmSync(store, { recursive: true, force: true });
  };
  const until = Date.now() + patient(15_000);
  while (Date.now() < until && !exited) {
    if (await accepts(port)) return { url: `nats://127.0.0.1:${port}`, stop };
    await new Promise((ok) => setTimeout(ok, 50));
  }
  await stop();
  throw new Error(`${BINARY} did not accept connections on 127.0.0.1:${port}; is nats-server installed?`);
}
