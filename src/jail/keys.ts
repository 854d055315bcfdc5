/**
 * The jails' credentials (decision 0064): `<state>/secrets/`, a directory every jail covers with
 * a view of its own, holds one key per session (`<name>.key`: the half a jailed client sends,
 * the half the server answers, the session id), the unix socket's header, and `views/<name>/`, the
 * one directory the launcher binds read-only over the whole of it: inside a jail only
 * `secrets/self` is there, the jail's own key. The directory is made once and never replaced, so a
 * mount over it stays on it.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JailKeyOf } from "../core/jail/identity.js";

/** node:crypto on first use: loading it costs every hook and command a few ms. */
const crypto = () => process.getBuiltinModule("node:crypto");

export const secretsDir = (stateDir: string): string => join(stateDir, "secrets");
/** The header every request on the server's unix socket carries (curl reads it with `-H @file`). */
export const socketHeaderFile = (stateDir: string): string => join(secretsDir(stateDir), "socket-header");
export const SOCKET_HEADER = "x-tandem-token";

/** A session id as a file name: anything but letters, digits, `-` and `_` becomes `_`. */
export function keyName(session: string): string {
  return session.replace(/[^A-Za-z0-9_-]/g, "_") || "_";
}

const NAME = /^[A-Za-z0-9_-]{1,200}$/;
const HALF = /^[0-9a-f]{32}$/;

/** The secrets directory, 0700, made when missing (never removed, so a jail's mount holds). */
export function ensureSecretsDir(stateDir: string): string {
  const dir = secretsDir(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

/** The session's key file, written once (a jail started earlier keeps a key that still works). */
export function ensureSessionKey(stateDir: string, session: string): string {
  const file = join(ensureSecretsDir(stateDir), `${keyName(session)}.key`);
  try {
    if (keyedSession(readJailKey(stateDir, keyName(session))) === session) return file;
  } catch {
    // Unreadable: write it afresh.
  }
  const half = () => crypto().randomBytes(16).toString("hex");
  writePrivate(file, `${half()} ${half()} ${session}\n`);
  return file;
}

export interface JailKey {
  /** What the jailed client sends. */
  ask: string;
  /** What the server answers, proving it could read the key. */
  answer: string;
  /** A session's key (`<ask> <answer> <session>`) or a run's (`<ask> <answer> run <pid> <start>`). */
  of: JailKeyOf;
}

/** The key stored under `name`, or null when there is none or it is malformed. */
export function readJailKey(stateDir: string, name: string): JailKey | null {
  if (!NAME.test(name)) return null;
  let text: string;
  try {
    text = readFileSync(join(secretsDir(stateDir), `${name}.key`), "utf8");
  } catch {
    return null;
  }
  const [ask, answer, ...rest] = text.trim().split(" ");
  if (!ask || !answer || !HALF.test(ask) || !HALF.test(answer)) return null;
  if (rest.length === 1 && rest[0]) return { ask, answer, of: { kind: "session", session: rest[0] } };
  // A start stamp read from ps has spaces of its own.
  const [word, pid, ...start] = rest;
  if (word === "run" && /^[1-9][0-9]*$/.test(pid ?? "") && start.length > 0)
    return { ask, answer, of: { kind: "run", pid: Number(pid), start: start.join(" ") } };
  return null;
}

const keyedSession = (key: JailKey | null): string | null =>
  key?.of.kind === "session" ? key.of.session : null;

/**
 * A `tandem run`'s key (decision 0071), named `name`, for the run process `pid` started at
 * `start`: a request that shows it may act for sessions whose agent descends from that process.
 */
export function writeRunKey(stateDir: string, name: string, pid: number, start: string): string {
  const file = join(ensureSecretsDir(stateDir), `${name}.key`);
  const half = () => crypto().randomBytes(16).toString("hex");
  writePrivate(file, `${half()} ${half()} run ${pid} ${start}\n`);
  return file;
}

/** Whose key a jail's hello proves, or null: `sent` must match the stored half exactly. */
export function jailHello(stateDir: string, name: string, sent: string): JailKey | null {
  const key = readJailKey(stateDir, name);
  if (!key) return null;
  const a = Buffer.from(sent);
  const b = Buffer.from(key.ask);
  return a.length === b.length && crypto().timingSafeEqual(a, b) ? key : null;
}

/** The jail's view of the secrets directory for the plan `name`: bound over the whole of it. */
export const secretsView = (stateDir: string, name: string): string =>
  join(secretsDir(stateDir), "views", name);

/**
 * Writes the view for the plan `name`: `self` (`<name> <ask> <answer>`) when the session has a
 * key (a session's, or a `tandem run`'s), nothing else; a jail with no key gets an empty one. Returns its directory.
 */
export function writeSecretsView(stateDir: string, name: string): string {
  ensureSecretsDir(stateDir);
  const dir = secretsView(stateDir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = readJailKey(stateDir, name);
  if (key) writePrivate(join(dir, "self"), `${name} ${key.ask} ${key.answer}\n`);
  else rmSync(join(dir, "self"), { force: true });
  return dir;
}

/** A fresh token for the unix socket, written where only processes outside every jail can read it. */
export function publishSocketHeader(stateDir: string): string {
  const token = crypto().randomBytes(24).toString("hex");
  ensureSecretsDir(stateDir);
  writePrivate(socketHeaderFile(stateDir), `${SOCKET_HEADER}: ${token}\n`);
  return token;
}
