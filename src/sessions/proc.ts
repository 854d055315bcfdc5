import { readFileSync, readlinkSync } from "node:fs";

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** An opaque start stamp: equal stamps mean the same process, so a recycled pid is told apart. */
  start: string;
  command: string;
}

function fromProcFs(pid: number): ProcInfo | null | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" && process.platform === "linux"
      ? null
      : undefined;
  }
  // comm may contain spaces and parentheses: the fields after it start after the last ')'.
  const close = stat.lastIndexOf(")");
  const command = programName(pid, stat.slice(stat.indexOf("(") + 1, close));
  const fields = stat.slice(close + 2).split(" ");
  if (exited(fields[0])) return null;
  const ppid = Number(fields[1]);
  const start = fields[19];
  if (!Number.isFinite(ppid) || start === undefined) return undefined;
  return { pid, ppid, start: `proc:${start}`, command };
}

/**
 * Node 24 names its main thread "MainThread", and Linux reports the main thread's name as the
 * process's: a node process then reads as the program its first argument names (`node`), as it
 * did before, so the agent search still passes over it like any interpreter.
 */
function programName(pid: number, comm: string): string {
  if (comm !== "MainThread") return comm;
  const argv0 = commandLine(pid)?.[0];
  return argv0 ? (argv0.split("/").at(-1) ?? comm) : comm;
}

/** ps in the C locale: `lstart` is then always "Wed Dec  2 04:11:16 2026", whatever the user's language. */
function runPs(args: string[]): string {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const env = { ...process.env, LC_ALL: "C", LANG: "C" };
  const res = spawnSync("ps", args, { encoding: "utf8", env });
  return res.status === 0 ? res.stdout : "";
}

/** One line of `ps -o pid=,ppid=,stat=,lstart=,comm=`; null when it is not one (or the process exited). */
export function parsePsLine(line: string): ProcInfo | null {
  const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\w{3}\s+\w{3}\s+\d+\s+[\d:]+\s+\d{4})\s+(.*)$/.exec(line);
  if (!m || exited(m[3])) return null;
  return { pid: Number(m[1]), ppid: Number(m[2]), start: `ps:${m[4]!.replace(/\s+/g, " ")}`, command: m[5]! };
}

const PS_FIELDS = "pid=,ppid=,stat=,lstart=,comm=";

function fromPs(pid: number): ProcInfo | null {
  return parsePsLine(runPs(["-o", PS_FIELDS, "-p", String(pid)]).trim());
}

/** Every process in one ps call: where there is no /proc, a chain of ancestors costs one process, not one per link. */
function psTable(): Map<number, ProcInfo> {
  const table = new Map<number, ProcInfo>();
  for (const line of runPs(["-A", "-o", PS_FIELDS]).split("\n")) {
    const info = parsePsLine(line);
    if (info) table.set(info.pid, info);
  }
  return table;
}

/**
 * A zombie (or dying) process has exited; only its exit status waits for a parent that has not
 * collected it yet (tmux keeping a dead pane open does this to the client it ran).
 */
function exited(state: string | undefined): boolean {
  return state !== undefined && (state.startsWith("Z") || state.startsWith("X"));
}

/** Facts about a running process, or null when it does not exist. */
export function procInfo(pid: number): ProcInfo | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const info = fromProcFs(pid);
  return info === undefined ? fromPs(pid) : info;
}

/** True when `pid` runs and is the same process that was recorded (same start stamp). */
export function processAlive(pid: number | null, start: string | null): boolean {
  if (!pid) return false;
  const info = procInfo(pid);
  return info !== null && (start === null || info.start === start);
}

/** The chain of ancestors of `pid` (parent first), up to init, bounded. */
export function ancestors(pid: number, max = 32): ProcInfo[] {
  const out: ProcInfo[] = [];
  let lookup = procInfo;
  if (fromProcFs(pid) === undefined) {
    const table = psTable();
    lookup = (p: number) => table.get(p) ?? null;
  }
  let current = lookup(pid);
  while (current && current.ppid > 1 && out.length < max) {
    const parent = lookup(current.ppid);
    if (!parent) break;
    out.push(parent);
    current = parent;
  }
  return out;
}

/**
 * The terminal session a process runs in: its session (equal values mean one session) and whether
 * it has a controlling terminal. A process that calls setsid(2) leaves its session and its terminal
 * behind, and no process can join a session it did not start (decision 0045). Null when gone.
 */
export interface TerminalFacts {
  session: string;
  tty: boolean;
}

export function terminalOf(pid: number): TerminalFacts | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  let stat: string | null = null;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" && process.platform === "linux") return null;
  }
  if (stat !== null) {
    // After comm: state ppid pgrp session tty_nr …; tty_nr 0 is "no controlling terminal".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (exited(fields[0]) || fields[3] === undefined || fields[4] === undefined) return null;
    return { session: `proc:${fields[3]}`, tty: fields[4] !== "0" };
  }
  return parseTerminalLine(runPs(["-o", "stat=,sess=,tty=", "-p", String(pid)]).trim());
}

/** One line of `ps -o stat=,sess=,tty=`: ps shows `?` (Linux) or `??` (BSD, macOS) for no terminal. */
export function parseTerminalLine(line: string): TerminalFacts | null {
  const m = /^(\S+)\s+(\S+)\s+(\S+)$/.exec(line);
  if (!m || exited(m[1])) return null;
  return { session: `ps:${m[2]}`, tty: !/^\?+$/.test(m[3]!) };
}

/** The argument vector of a process (Linux /proc only; null elsewhere or when it is gone). */
export function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return null;
  }
}

/** A process's working directory (Linux /proc only; null elsewhere, when gone or not ours). */
export function processCwd(pid: number): string | null {
  const { readlinkSync } = process.getBuiltinModule("node:fs");
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

/** Every process id on the machine (Linux /proc only; empty elsewhere). */
export function allPids(): number[] {
  const { readdirSync } = process.getBuiltinModule("node:fs");
  try {
    return readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Whether `pid` runs in another user namespace than this process: inside a kernel jail (decision
 * 0064). The kernel shows a process's namespaces to a caller outside them; false when it cannot be read.
 */
export function inOtherUserNamespace(pid: number): boolean {
  try {
    return readlinkSync(`/proc/${pid}/ns/user`) !== readlinkSync("/proc/self/ns/user");
  } catch {
    return false;
  }
}
