import { readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { patient } from "./patience.js";

/**
 * Processes the suite started carry two marks in their environment, which every child inherits
 * (issue 42 item 6): the run's id, set by the global setup, and the test file that started them,
 * set by test/setup-env.ts. Neither starts with a prefix the tests' environment scrubbers drop
 * (`TANDEM_`, `GIT_`, `CLAUDE_`, …). Another run on the same machine has another id, so a check
 * never touches a process it did not start.
 */
export const RUN_MARK = "TESTSUITE_RUN";
export const FILE_MARK = "TESTSUITE_FILE";

/** A process as /proc shows it: its raw `environ` and `cmdline` (NUL-separated). */
export interface ProcEntry {
  pid: number;
  environ: string;
  cmdline: string;
}

export interface Leftover {
  pid: number;
  command: string;
  /** The test file that started it. */
  file: string;
}

/** The variables of a NUL-separated environment block. */
export function environOf(raw: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const entry of raw.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) vars.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return vars;
}

/**
 * The processes among `entries` that a test of run `run` started (of file `file`, when given).
 * A process without a file mark is the runner's own (its workers inherit only the run's id).
 */
export function leftoversIn(entries: readonly ProcEntry[], run: string, file?: string): Leftover[] {
  const out: Leftover[] = [];
  for (const e of entries) {
    const vars = environOf(e.environ);
    const from = vars.get(FILE_MARK);
    if (vars.get(RUN_MARK) !== run || !from || (file !== undefined && from !== file)) continue;
    const command = e.cmdline.split("\0").filter(Boolean).join(" ") || "(no command line)";
    out.push({ pid: e.pid, command, file: from });
  }
  return out;
}

/** Every process of this user /proc lets us read, except `except` (the caller itself). */
export function readProcs(root = "/proc", except: readonly number[] = [process.pid]): ProcEntry[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return []; // Not Linux: nothing to scan.
  }
  const entries: ProcEntry[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || except.includes(pid)) continue;
    try {
      const environ = readFileSync(`${root}/${name}/environ`, "latin1");
      const cmdline = readFileSync(`${root}/${name}/cmdline`, "utf8");
      entries.push({ pid, environ, cmdline });
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return entries;
}

/** The marked processes still running, as `find` sees them now. */
export type Finder = () => Leftover[];

/** Finds the processes of `run` (and `file`) in /proc. */
export function procFinder(run: string, file?: string): Finder {
  return () => leftoversIn(readProcs(), run, file);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitGone(find: Finder, ms: number): Promise<Leftover[]> {
  const deadline = Date.now() + ms;
  let left = find();
  while (left.length > 0 && Date.now() < deadline) {
    await pause(100);
    left = find();
  }
  return left;
}

function signal(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Lets processes that are already stopping finish (a server told to stop, a client's last write),
 * then ends what is still there: SIGTERM, and SIGKILL for what ignores it. Returns what was left
 * after the grace, i.e. what the tests failed to stop.
 */
export async function reapLeftovers(find: Finder, graceMs = patient(5000)): Promise<Leftover[]> {
  const left = await waitGone(find, graceMs);
  if (left.length === 0) return left;
  signal(
    left.map((l) => l.pid),
    "SIGTERM",
  );
  const stubborn = await waitGone(find, patient(3000));
  signal(
    stubborn.map((l) => l.pid),
    "SIGKILL",
  );
  return left;
}

/** What a failed check says: which processes, started by which file, and what to do. */
export function leftoverReport(left: readonly Leftover[], where: string): string {
  const lines = left.map((l) => `  pid ${l.pid} (from ${l.file}): ${l.command.slice(0, 200)}`);
  return [
    `${left.length} process(es) started by ${where} were still running afterwards; they are killed now:`,
    ...lines,
    "Stop what a test starts in its own clean-up (afterEach/afterAll), or kill its process group on timeout.",
  ].join("\n");
}

/** This run's marks, for a child started with an environment of its own (`env -i …`). */
export function suiteMarks(): Record<string, string> {
  const marks: Record<string, string> = {};
  for (const k of [RUN_MARK, FILE_MARK]) {
    const v = process.env[k];
    if (v) marks[k] = v;
  }
  return marks;
}

/** Whether `path` is `dir` or lies inside it (both physical, absolute). */
const inside = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

/**
 * This run's processes whose working directory lies in one of `dirs`: a server a hook started on
 * demand, a detached sync round. Their directory is about to be removed, and they would write into
 * it meanwhile.
 */
export function workingIn(dirs: readonly string[], run = process.env[RUN_MARK]): Leftover[] {
  if (!run || dirs.length === 0) return [];
  return leftoversIn(readProcs(), run).filter((l) => {
    try {
      const cwd = readlinkSync(`/proc/${l.pid}/cwd`).replace(/ \(deleted\)$/, "");
      return dirs.some((d) => inside(cwd, d));
    } catch {
      return false; // Gone meanwhile.
    }
  });
}

/**
 * Ends what still works in `dirs` (SIGTERM, bounded wait, SIGKILL), then removes them. Removal is
 * retried whole: Node's own retry repeats only the last `rmdir`, so a file written after its walk
 * would fail it for good.
 */
export async function removeWorkDirs(dirs: readonly string[], run = process.env[RUN_MARK]): Promise<void> {
  await reapLeftovers(() => workingIn(dirs, run), 0);
  for (let attempt = 1; ; attempt++) {
    try {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      return;
    } catch (err) {
      if (attempt >= 20) throw err;
      await pause(100 * attempt);
    }
  }
}
