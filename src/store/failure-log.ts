import { appendFileSync, existsSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { describeProblem, type StoreError, type StoreProblem } from "./failure.js";
import { markCorrupt } from "./identity.js";

/**
 * The durable trace of hook failures the ledger could not take: the store was
 * locked, read-only, corrupt, missing or replaced. One JSON object per line,
 * so `tandem doctor` can report each with its fix.
 */
export interface FailureEntry {
  ts: string;
  /** `hook claude-code pre-tool-use`, `git-hook pre-commit`, … */
  source: string;
  session: string | null;
  failed: "open" | "closed";
  problem: StoreProblem | "error";
  message: string;
}

/** Beside the ledger; in the git directory when the state directory itself cannot be written. */
export function failureLogFiles(stateDir: string): [string, string] {
  return [join(stateDir, "hook-errors.log"), `${stateDir}.hook-errors.log`];
}

/** Appends one entry; false when neither place could be written. */
export function logFailure(stateDir: string, entry: FailureEntry): boolean {
  const line = `${JSON.stringify(entry)}\n`;
  const [beside, outside] = failureLogFiles(stateDir);
  for (const file of existsSync(stateDir) ? [beside, outside] : [outside]) {
    try {
      appendFileSync(file, line);
      return true;
    } catch {
      // Try the next place.
    }
  }
  return false;
}

function parseLine(line: string): FailureEntry {
  try {
    const v = JSON.parse(line) as FailureEntry;
    if (typeof v.message === "string" && typeof v.ts === "string") return v;
  } catch {
    // A line in the older plain format: kept whole as its message.
  }
  return {
    ts: line.slice(0, 24),
    source: "hook",
    session: null,
    failed: "open",
    problem: "error",
    message: line,
  };
}

/** Every recorded entry, oldest first per file. */
export function readFailureLog(stateDir: string): FailureEntry[] {
  const out: FailureEntry[] = [];
  for (const file of failureLogFiles(stateDir)) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) if (line.trim()) out.push(parseLine(line));
  }
  return out.sort((a, b) => a.ts.localeCompare(b.ts));
}

/** `doctor --reset` acknowledges the recorded failures: the logs are kept under a new name. */
export function setFailureLogsAside(stateDir: string, stamp: string): string[] {
  const moved: string[] = [];
  for (const file of failureLogFiles(stateDir)) {
    if (!existsSync(file)) continue;
    const to = `${file}.${stamp}`;
    renameSync(file, to);
    moved.push(to);
  }
  return moved;
}

/** A store failure's trace: logged, and corruption marked so every later gate refuses too. */
export function recordStoreFailure(
  stateDir: string,
  err: StoreError,
  entry: Omit<FailureEntry, "problem" | "message" | "ts">,
  now = new Date(),
): boolean {
  if (err.lasting) markCorrupt(stateDir, err.detail, now);
  const message = `${err.file} ${describeProblem(err.problem)} (${err.detail})`;
  return logFailure(stateDir, { ts: now.toISOString(), ...entry, problem: err.problem, message });
}
