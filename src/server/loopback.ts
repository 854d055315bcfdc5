import { randomBytes, timingSafeEqual } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import type { JailKeyOf } from "../core/jail/identity.js";
import { frameAnswer, MAX_REQUEST_BYTES, readFrame } from "../core/server/thin-protocol.js";
import { helloDir, tcpFile } from "../resident/paths.js";
import type { Served } from "./dispatch.js";

/**
 * The loopback door (docs/server.md §2, decisions 0013 and 0027): bash reaches a TCP port with a
 * built-in where the unix socket needs `curl`. Any local user can connect to a port, or take it
 * once our server died, so each side proves itself before the client says anything: the client
 * leaves a fresh random key in `serve.hello/<name>` (a directory only this user can enter), sends
 * the name alone, and goes on only when the answer is that key. Then it sends `token` (from the
 * 0600 `serve.tcp`) with its request, and the server refuses a request without it. The request is
 * framed in one line-free head and the body (src/core/server/thin-protocol.ts `readFrame`), not HTTP.
 */
export interface LoopbackSecrets {
  token: string;
}

/** What the port needs of the server: its token, how to answer a body, and where faults go. */
export interface LoopbackDoor {
  token: string;
  /** `jail`: the session whose jail's key opened the door (decision 0064); absent for the hello door. */
  answer(body: Buffer, jail?: JailKeyOf): Promise<Served>;
  /** A jail's key: the half to answer and its session, or null when `ask` is not `name`'s. */
  jailKey(name: string, ask: string): { answer: string; of: JailKeyOf } | null;
  /** Work to do once the answer is sent. */
  after(answer: Served): void;
  fault(what: string, err: unknown): void;
}

export const HELLO = "tandem-hello 1 ";
/** A jailed client's greeting: `tandem-jail 1 <name> <its half of the key>` (decision 0064). */
export const JAIL_HELLO = "tandem-jail 1 ";
export const PROOF = "tandem-proof ";

/** `$$.<random>`, as the client names its key file: nothing that could leave the directory. */
const KEY_NAME = /^[0-9]{1,10}\.[A-Za-z0-9]{1,48}$/;
const KEY = /^[A-Za-z0-9]{16,128}$/;

/** Fresh for each server: a token a dead server leaked opens nothing. */
export function newSecrets(): LoopbackSecrets {
  return { token: randomBytes(24).toString("hex") };
}

export function tokenMatches(sent: string | string[] | undefined, token: string): boolean {
  if (typeof sent !== "string") return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Emptied at each start (keys left for a squatter stay behind), private to this user, and
 * unlistable (0300): a client writes its key under a random name and the server opens that name,
 * so neither lists it; a jailed process, whose state is read-only, cannot chmod it to list the
 * names a client outside has just left and answer them first (decision 0064).
 */
export function prepareHelloDir(stateDir: string): string {
  const dir = helloDir(stateDir);
  removeHelloDir(dir);
  mkdirSync(dir, { mode: 0o300 });
  chmodSync(dir, 0o300);
  return dir;
}

/** An unlistable directory is removed once its owner may list it again. */
function removeHelloDir(dir: string): void {
  try {
    chmodSync(dir, 0o700);
  } catch {
    // Not there.
  }
  rmSync(dir, { recursive: true, force: true });
}

/** The key a client left under `name`, taken (one use); null when there is none to take. */
function takeKey(dir: string, name: string): string | null {
  if (!KEY_NAME.test(name)) return null;
  const file = join(dir, name);
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > 128) return null;
    const key = readFileSync(file, "latin1");
    unlinkSync(file);
    return KEY.test(key) ? key : null;
  } catch {
    return null;
  }
}

/**
 * The port's listener: reads the client's hello line, answers the key it names (or
 * `tandem-unknown` and closes), then reads one framed request and answers it.
 */
export function loopbackServer(door: LoopbackDoor, dir: string): Server {
  return createServer((socket) => {
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on("error", () => socket.destroy());
    let head = "";
    const onData = (chunk: Buffer): void => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\n");
      if (end < 0) {
        if (head.length > 256) socket.destroy();
        return;
      }
      socket.off("data", onData);
      // The client waits for the proof before it writes more: anything after the line is not ours.
      const whole = end === head.length - 1;
      const jail =
        whole && head.startsWith(JAIL_HELLO) ? jailGreeting(door, head.slice(JAIL_HELLO.length, end)) : null;
      const key = jail
        ? jail.answer
        : whole && head.startsWith(HELLO)
          ? takeKey(dir, head.slice(HELLO.length, end))
          : null;
      if (key === null) {
        socket.end("tandem-unknown\n");
        return;
      }
      socket.setNoDelay(true);
      socket.write(`${PROOF}${key}\n`);
      readRequest(socket, door, jail?.of);
    };
    socket.on("data", onData);
  });
}

/** `<name> <half>` checked against the jail keys; null when it opens nothing. */
function jailGreeting(door: LoopbackDoor, rest: string): { answer: string; of: JailKeyOf } | null {
  const [name, ask, extra] = rest.split(" ");
  return name && ask && extra === undefined ? door.jailKey(name, ask) : null;
}

/** Collects the framed request, checks the token, answers once, and closes. */
function readRequest(socket: Socket, door: LoopbackDoor, jail: JailKeyOf | undefined): void {
  let chunks: Buffer[] = [];
  let total = 0;
  let need = 0;
  const onData = (chunk: Buffer): void => {
    chunks.push(chunk);
    total += chunk.length;
    if (total < need) return;
    const data = Buffer.concat(chunks, total);
    chunks = [data];
    const frame = readFrame(data, MAX_REQUEST_BYTES);
    if (frame.kind === "more") {
      need = frame.need ?? 0;
      return;
    }
    socket.off("data", onData);
    // A hook may take its time (a lock held elsewhere); the client has its own limit.
    socket.setTimeout(0);
    if (frame.kind === "bad") return void socket.end(frameAnswer(400, `${frame.why}\n`));
    if (!tokenMatches(frame.token, door.token)) return void socket.end(frameAnswer(403, "bad token\n"));
    door
      .answer(frame.body, jail)
      .then((answer) => socket.end(frameAnswer(answer.status, answer.body), () => door.after(answer)))
      .catch((err: unknown) => door.fault("answering a request", err));
  };
  socket.on("data", onData);
}

/** `<port> <token>`, one line, 0600, written atomically after the port listens. */
export function publishLoopback(stateDir: string, port: number, secrets: LoopbackSecrets): void {
  const file = tcpFile(stateDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${port} ${secrets.token}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function withdrawLoopback(stateDir: string): void {
  rmSync(tcpFile(stateDir), { force: true });
  removeHelloDir(helloDir(stateDir));
}
