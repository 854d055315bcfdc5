import { chmodSync, existsSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Server as NetServer } from "node:net";
import { loadConfig } from "../config/load.js";
import type { JailKeyOf } from "../core/jail/identity.js";
import { MAX_REQUEST_BYTES } from "../core/server/thin-protocol.js";
import { errorMessage } from "../errors.js";
import { jailHello, publishSocketHeader, SOCKET_HEADER } from "../jail/keys.js";
import { addrFile, socketFor } from "../resident/paths.js";
import { processAlive, procInfo } from "../sessions/proc.js";
import { dbFile, openDb, setLockWait } from "../store/db.js";
import { pruneRequests } from "../store/ledger/requests.js";
import { registerServer, type ServerRow, unregisterServer } from "../store/server/row.js";
import { injectFault } from "../testing/crash.js";
import { dispatch, type Served, type ServerScope } from "./dispatch.js";
import { Faults } from "./faults.js";
import {
  type LoopbackDoor,
  type LoopbackSecrets,
  loopbackServer,
  newSecrets,
  prepareHelloDir,
  publishLoopback,
  tokenMatches,
  withdrawLoopback,
} from "./loopback.js";
import { StorePool } from "./pool.js";
import { type WiringWatch, watchWiring } from "./wiring-watch.js";

export interface ServeOptions {
  root: string;
  stateDir: string;
  build: string;
  env: Readonly<Record<string, string | undefined>>;
  log: (line: string) => void;
}

/** How often the server looks whether its repository, config and registration still hold. */
const TICK_MS = 2_000;
/** Requests older than this are long answered or abandoned (a thin client waits 30 s at most). */
const REQUEST_TTL_MS = 10 * 60_000;

/**
 * `tandem serve`: registers as the repository's one server, listens on its unix socket, answers
 * thin-client requests, and exits when idle, when its repository or registration is gone, when
 * the config switches it off, or when a client of another build asks. Resolves with the exit code.
 */
export async function serve(opts: ServeOptions): Promise<number> {
  const me: ServerRow = {
    pid: process.pid,
    pid_start: procInfo(process.pid)?.start ?? null,
    build: opts.build,
    socket: socketFor(opts.stateDir).path,
    started: Date.now(),
  };
  const control = openDb(opts.stateDir);
  const holder = registerServer(control, me, (r) => processAlive(r.pid, r.pid_start));
  if (holder) {
    control.close();
    opts.log(`another server (pid ${holder.pid}, build ${holder.build}) already serves this repository`);
    return 3;
  }
  // Background work never waits for the lock: a request that needs the store waits, pruning skips.
  setLockWait(control, 0);
  const faults = new Faults(opts.stateDir, opts.log);
  const pool = new StorePool();
  const scope: ServerScope = { build: opts.build, stateDir: opts.stateDir, store: pool };
  let lastRequest = Date.now();
  let inFlight = 0;
  let stopping: string | null = null;
  // One answer for both doors: the socket's HTTP and the loopback port's own framing.
  const answerBody = (body: Buffer, jail?: JailKeyOf): Promise<Served> => {
    lastRequest = Date.now();
    inFlight++;
    return Promise.resolve()
      .then((): Served | Promise<Served> =>
        stopping ? { status: 409, body: "stopping\n" } : dispatch(body, scope, jail),
      )
      .catch((err: unknown): Served => ({ status: 500, body: `${errorMessage(err)}\n` }))
      .then((answer) => {
        if (answer.status === 409 && !stopping) stop("a client of another build asked");
        return answer;
      })
      .finally(() => {
        inFlight--;
        lastRequest = Date.now();
      });
  };
  const afterAnswer = (answer: Served) => () => {
    for (const task of answer.after ?? []) faults.guard("a task after an answer", task);
  };
  // The socket's token lives where no jail can read it: a jailed process that connects is refused.
  const socketToken = socketTokenOrNone(opts);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const allowed = tokenMatches(req.headers[SOCKET_HEADER], socketToken);
    readBody(req)
      .then(
        (body) => (allowed ? answerBody(body) : { status: 403, body: "bad token\n" }),
        (err: unknown): Served => ({ status: 500, body: `${errorMessage(err)}\n` }),
      )
      .then((answer) => {
        res.writeHead(answer.status, {
          "content-type": "text/plain; charset=utf-8",
          "content-length": Buffer.byteLength(answer.body),
          connection: "close",
        });
        res.end(answer.body, afterAnswer(answer));
      })
      .catch((err: unknown) => faults.record("answering a request", err));
  };
  const server = createServer(handler);
  const secrets = newSecrets();
  const door: LoopbackDoor = {
    token: secrets.token,
    answer: answerBody,
    jailKey: (name, ask) => {
      const key = jailHello(opts.stateDir, name, ask);
      return key ? { answer: key.answer, of: key.of } : null;
    },
    after: (answer) => afterAnswer(answer)(),
    fault: (what, err) => faults.record(what, err),
  };
  let tcp: NetServer | null = null;
  let done: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    done = resolve;
  });
  const stop = (why: string) => {
    if (stopping) return;
    stopping = why;
    opts.log(`stopping: ${why}`);
    clearInterval(timer);
    wiring?.close();
    try {
      withdrawLoopback(opts.stateDir); // no new clients by the loopback door
    } catch {
      // The clean-up below tries again and reports what is left.
    }
    server.close();
    tcp?.close();
    const waitIdle = setInterval(() => {
      if (inFlight > 0) return;
      clearInterval(waitIdle);
      done(cleanUp(opts, me, control, pool) ? 0 : 1);
    }, 20);
  };
  // Each step on its own: a store that is locked or damaged must not stop the checks, nor the server.
  const timer = setInterval(() => {
    const why = faults.guard("checking whether to stop", () => reasonToStop(opts, me, lastRequest, inFlight));
    if (why) stop(why);
    else faults.guard("pruning old requests", () => pruneRequests(control, Date.now() - REQUEST_TTL_MS));
  }, TICK_MS);
  faults.onCrash(() => cleanUp(opts, me, control, pool));
  let wiring: WiringWatch | undefined;
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, () => stop(sig));
  try {
    await listen(server, me.socket, socketFor(opts.stateDir).dir !== null);
  } catch (err) {
    opts.log(`cannot listen on ${me.socket}: ${errorMessage(err)}`);
    cleanUp(opts, me, control, pool);
    return 1;
  }
  tcp = await listenLoopback(door, opts, secrets);
  if (!stopping) wiring = watchWiring(opts.stateDir, pool, opts.log);
  publishAddress(opts.stateDir, me.socket);
  opts.log(`serving ${opts.root} on ${me.socket} (build ${opts.build}, pid ${me.pid})`);
  injectFault(opts.env);
  return finished;
}

/** The loopback door is a shortcut: without it (null), clients use the socket. */
async function listenLoopback(
  door: LoopbackDoor,
  opts: ServeOptions,
  secrets: LoopbackSecrets,
): Promise<NetServer | null> {
  try {
    const tcp = loopbackServer(door, prepareHelloDir(opts.stateDir));
    await new Promise<void>((resolve, reject) => {
      tcp.once("error", reject);
      tcp.listen(0, "127.0.0.1", () => resolve());
    });
    const addr = tcp.address();
    if (addr && typeof addr === "object") publishLoopback(opts.stateDir, addr.port, secrets);
    return tcp;
  } catch (err) {
    opts.log(`no loopback port (clients use the socket): ${errorMessage(err)}`);
    return null;
  }
}

function reasonToStop(
  opts: ServeOptions,
  me: ServerRow,
  lastRequest: number,
  inFlight: number,
): string | null {
  if (!existsSync(dbFile(opts.stateDir))) return "the store is gone";
  if (!existsSync(me.socket)) return "the socket was removed";
  const { config } = loadConfig(opts.root, opts.env);
  if (!config.serverEnabled) return "server.enabled is false";
  // Seconds from the server's own environment: tests and benchmarks need less than a minute.
  const seconds = Number(opts.env.TANDEM_SERVER_IDLE_SECONDS);
  const idleMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : config.serverIdleMinutes * 60_000;
  if (inFlight === 0 && Date.now() - lastRequest > idleMs) return "idle";
  return null;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) req.destroy(new Error("request too large"));
      else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Binds the socket (only this user may connect); a stale socket file of a dead server goes first. */
async function listen(server: Server, socket: string, shared: boolean): Promise<void> {
  const { dir } = { dir: socket.slice(0, socket.lastIndexOf("/")) };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (shared) keepPrivate(dir);
  rmSync(socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => resolve());
  });
  chmodSync(socket, 0o600);
}

/**
 * The socket's directory under the shared temporary directory must be this user's alone: anyone
 * who may write there could put their own socket in place of ours and answer the hooks.
 */
function keepPrivate(dir: string): void {
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid))
    throw new Error(
      `${dir} is not a directory of this user; remove it, or move the repository to a shorter path`,
    );
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** The socket's token; when it cannot be written, one nobody knows (clients use the loopback port). */
function socketTokenOrNone(opts: ServeOptions): string {
  try {
    return publishSocketHeader(opts.stateDir);
  } catch (err) {
    opts.log(`the socket takes no requests (its token could not be written): ${errorMessage(err)}`);
    return newSecrets().token;
  }
}

/** Written last and atomically: a thin client that reads it finds a socket that answers. */
function publishAddress(stateDir: string, socket: string): void {
  const file = addrFile(stateDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${socket}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * Each step on its own, so one that fails (a state directory made read-only meanwhile) does not
 * skip the rest; what could not be removed is logged, and `tandem serve --stop` reports it.
 * Returns whether everything was removed.
 */
function cleanUp(
  opts: ServeOptions,
  me: ServerRow,
  control: ReturnType<typeof openDb>,
  pool: StorePool,
): boolean {
  const left: string[] = [];
  const step = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      left.push(`${what}: ${errorMessage(err)}`);
    }
  };
  step("the pooled connections", () => pool.close());
  step("the loopback files", () => withdrawLoopback(opts.stateDir));
  // Address and socket before the registration: no successor can bind until it is released.
  step("the address", () => rmSync(addrFile(opts.stateDir), { force: true }));
  step("the socket", () => rmSync(me.socket, { force: true }));
  // A registration left behind names a dead process: the next server replaces it.
  step("the registration", () => unregisterServer(control, me.pid));
  step("the store connection", () => control.close());
  for (const l of left) opts.log(`clean-up failed, left ${l}`);
  return left.length === 0;
}
