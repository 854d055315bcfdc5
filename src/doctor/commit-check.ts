import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLAIN, type Printer, spanned } from "../core/printed.js";
import { shellQuote } from "../core/shell/quote.js";
import { errorMessage } from "../errors.js";
import { GIT_LOCATION_VARS, git } from "../git/run.js";
import { CANNOT_START, hasRegion } from "../wiring/git-hooks.js";
import { readRecordedInit } from "../wiring/options.js";
import { gitHooksDir } from "../wiring/snapshot.js";
import type { Finding } from "./finding.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether a commit from an agent's shell starts Tandem (decision 0049): a real `bash -lc 'git
 * commit'`, as Codex runs every command, against a scratch index holding HEAD's tree. Git runs
 * pre-commit, then dies reading a message file that does not exist: before it writes
 * COMMIT_EDITMSG, runs any other hook or makes a commit, so nothing in the repository changes.
 */

const CHECK = "git commit";
const TIMEOUT_MS = 30_000;
export const SHOWN = "bash -lc 'git commit …'";

/** The command the login shell runs (a shell string: that shell is what is under test). */
export function commitProbe(index: string, message: string): string {
  const who = "-c user.name=tandem-doctor -c user.email=doctor@tandem.invalid";
  return `GIT_INDEX_FILE=${shellQuote(index)} git ${who} commit -q --allow-empty -F ${shellQuote(message)}`;
}

export interface CommitRun {
  status: number | null;
  stderr: string;
  /** Why the shell could not be run at all (timeout, no bash), else null. */
  error: string | null;
}

const initFix = (p: Printer) =>
  `run ${spanned(p, "init")} from the Tandem and Node you use now: it points the git hooks at the command agents are told (the repository launcher where a login shell finds no Tandem); then run ${spanned(p, "doctor")} again`;

/** The finding for one run (pure). `message` is the file git was told to read after pre-commit. */
export function commitFinding(run: CommitRun, message: string, hook: string, p: Printer = PLAIN): Finding {
  if (run.error)
    return {
      level: "problem",
      check: CHECK,
      detail: `\`${SHOWN}\` could not be run to try the git hooks (${run.error})`,
      fix: `make sure bash and git run here, then run ${spanned(p, "doctor")} again`,
    };
  // Git reached the message file: pre-commit passed. The path is ours, in any language.
  if (run.status === 128 && run.stderr.includes(message))
    return {
      level: "ok",
      check: CHECK,
      detail: `\`${SHOWN}\` runs the pre-commit hook, which starts Tandem (tried on a scratch index; nothing was committed)`,
    };
  const lines = run.stderr.trim().split("\n").filter(Boolean);
  const why = lines.some((l) => l.includes(CANNOT_START))
    ? "no command in its Tandem block starts Tandem there"
    : (lines.at(-1) ?? `exit ${run.status}`);
  if (lines.some((l) => l.includes(CANNOT_START) || /not found|No such file|Permission denied/.test(l)))
    return {
      level: "problem",
      check: CHECK,
      detail: `\`${SHOWN}\` fails: ${hook} cannot start Tandem in an agent's login shell (${why}), so agents cannot commit`,
      fix: initFix(p),
    };
  return {
    level: "problem",
    check: CHECK,
    detail: `\`${SHOWN}\` with nothing staged is stopped by ${hook} (${why}), so agents cannot commit`,
    fix: `fix what ${hook} reports (Tandem's block, or the lines after it), then run ${spanned(p, "doctor")} again`,
  };
}

function scratchIndex(root: string, index: string): void {
  const env = { GIT_INDEX_FILE: index };
  try {
    git(root, ["read-tree", "HEAD"], { env });
  } catch {
    git(root, ["read-tree", "--empty"], { env }); // no commit yet
  }
}

function runCommit(root: string, env: Env, index: string, message: string): CommitRun {
  const clean: NodeJS.ProcessEnv = { ...env };
  for (const k of GIT_LOCATION_VARS) delete clean[k];
  const r = spawnSync("bash", ["-lc", commitProbe(index, message)], {
    cwd: root,
    env: clean,
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { status: r.status, stderr: r.stderr ?? "", error: r.error ? r.error.message : null };
}

function wiredPreCommit(root: string): string | null {
  if (readRecordedInit(root)?.gitHooks === false) return null;
  try {
    const file = join(gitHooksDir(root), "pre-commit");
    return hasRegion(readFileSync(file, "utf8")) ? file : null;
  } catch {
    return null; // missing or no repository: the wiring check reports it
  }
}

/** Tries a commit as an agent's login shell makes it; nothing when Tandem's git hooks are not installed. */
export function checkCommit(root: string, env: Env, p: Printer): Finding[] {
  const hook = wiredPreCommit(root);
  if (!hook) return [];
  const dir = mkdtempSync(join(tmpdir(), "tandem-doctor-commit-"));
  try {
    const index = join(dir, "index");
    const message = join(dir, "no-message");
    scratchIndex(root, index);
    return [commitFinding(runCommit(root, env, index, message), message, hook, p)];
  } catch (err) {
    const detail = `could not make a scratch index to try \`${SHOWN}\`: ${errorMessage(err)}`;
    return [{ level: "info", check: CHECK, detail }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
