import { readFileSync, statSync } from "node:fs";
import type { ClientName } from "../clients/index.js";
import { spanned } from "../core/printed.js";
import { readBlob, writeBlob } from "../store/blobs/files.js";
import type { Db } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import {
  dropWiringFile,
  lastFound,
  lastToolSessionBefore,
  putWiringFile,
  type WiringChoice,
  type WiringFileRow,
  wiringChoices,
  wiringFiles,
} from "../store/wiring/rows.js";
import { agentCommandFor } from "./agent-launch.js";
import { printerOf } from "./agent-shell.js";
import { writeAtomic } from "./apply.js";
import { isOurPolicyFile, policyHomeOf } from "./gemini-policy.js";
import { contested, FIGHT_LIMIT, type HealStep, healPlan, staleFiles, statesOf } from "./heal-plan.js";
import { readSnapshot, type Snapshot } from "./snapshot.js";
import { blobsDirOf, currentRow, wiringStamp } from "./wiring-record.js";

/**
 * Heals the wiring (docs/decisions/0024): a stat of each recorded file, and only when one changed,
 * the same plan as `tandem init` over the files as found; Tandem's missing or altered entries are
 * written back and each restoration is recorded as `wiring.restored`.
 */

export interface HealOptions {
  via: "hook" | "server";
  /** The session whose hook is checking, asked only when something is restored. */
  foundBy: () => string | null;
}

export interface HealResult {
  restored: { file: string; changes: string[] }[];
  /** Files init refuses and no earlier content of which is known: left as they are. */
  unhealable: { file: string; reason: string }[];
}

const NOTHING: HealResult = { restored: [], unhealable: [] };

/** The cheap check every hook makes: one read of the record and a stat per file. */
export function healWiring(db: Db, stateDir: string, opts: HealOptions): HealResult {
  if (staleFiles(wiringFiles(db), wiringStamp).length === 0) return NOTHING;
  // Under the write lock, read again: a concurrent hook may have healed, or init/deinit run.
  return write(db, () => {
    const stale = staleFiles(wiringFiles(db), wiringStamp);
    const result: HealResult = { restored: [], unhealable: [] };
    for (const choice of wiringChoices(db)) {
      const mine = stale.filter((r) => r.root === choice.root);
      if (mine.length > 0) healRoot(db, stateDir, choice, mine, opts, result);
    }
    return result;
  });
}

const sha256 = (bytes: Buffer): string =>
  process.getBuiltinModule("node:crypto").createHash("sha256").update(bytes).digest("hex");

function contentBlob(path: string): string | null {
  try {
    return sha256(readFileSync(path));
  } catch {
    return null;
  }
}

/** The environment to read a root's files with: Gemini's home as init recorded it, not the healer's own. */
function envOf(rows: Iterable<WiringFileRow>, root: string): NodeJS.ProcessEnv {
  for (const r of rows) {
    const home = r.root === root ? policyHomeOf(r.path) : null;
    if (home !== null) return { ...process.env, GEMINI_CLI_HOME: home };
  }
  return process.env;
}

/** Why a file is left as found; a person stops the writer and re-runs init (agents may not). */
const contestedWhy = (init: string) =>
  `something keeps writing the same content back (${FIGHT_LIMIT} restorations in a row found it): another Tandem, a sync tool or a script; Tandem leaves it as it is. Stop that writer, then run ${init}`;

/** What one restoration tells: whether it is news to agents, and whether a Tandem wrote what it found. */
interface Telling {
  /** The file was recorded before: a file new to this version of Tandem is written, not announced. */
  announce: boolean;
  /** The content found is a Tandem policy file: no agent's tool call is to blame for it. */
  byTandem: boolean;
}

function tellingOf(s: Snapshot, path: string, recorded: boolean): Telling {
  const policy = s.geminiPolicy;
  const byTandem = policy?.path === path && policy.text !== null && isOurPolicyFile(policy.text);
  return { announce: recorded, byTandem };
}

function healRoot(
  db: Db,
  stateDir: string,
  choice: WiringChoice,
  stale: readonly WiringFileRow[],
  opts: HealOptions,
  result: HealResult,
): void {
  // Touched but the same bytes (a checkout, `touch`): only the stamps move.
  if (stale.every((r) => contentBlob(r.path) === r.blob)) {
    for (const r of stale) putWiringFile(db, { ...r, stamp: wiringStamp(r.path) });
    return;
  }
  const rows = new Map(wiringFiles(db).map((r) => [r.path, r]));
  const blobs = blobsDirOf(stateDir);
  const lastGood = (path: string): string | null => {
    const blob = rows.get(path)?.blob;
    if (!blob) return null;
    try {
      return readBlob(blobs, blob).toString("utf8");
    } catch {
      return null; // Swept or damaged: heal from the file as found.
    }
  };
  const snapshot = readSnapshot(
    choice.root,
    choice.clients as ClientName[],
    choice.gitHooks,
    envOf(rows.values(), choice.root),
  );
  // A recorded file that is no longer wiring (the shared Gemini rule of an older Tandem): forgotten.
  const known = new Set(statesOf(snapshot).map((f) => f.path));
  const gone = new Set(stale.filter((r) => !known.has(r.path)).map((r) => r.path));
  for (const path of gone) dropWiringFile(db, path);
  const record = {
    command: choice.launcher,
    clients: choice.clients as ClientName[],
    gitHooks: choice.gitHooks,
  };
  const agent = agentCommandFor(choice.root, stateDir, choice.launcher);
  const steps = healPlan(snapshot, choice.launcher, record, lastGood, agent);
  const unhealable = new Set<string>();
  for (const step of steps) {
    const found = contentBlob(step.path);
    const why =
      step.text === null
        ? (step.unhealable ?? "")
        : contested(found, lastFound(db, step.path, FIGHT_LIMIT))
          ? contestedWhy(spanned(printerOf(choice.root, stateDir, "person"), "init"))
          : null;
    if (why !== null) {
      unhealable.add(step.path);
      result.unhealable.push({ file: step.path, reason: why });
      continue;
    }
    restore(
      db,
      stateDir,
      choice.root,
      step,
      opts,
      found,
      tellingOf(snapshot, step.path, rows.has(step.path)),
    );
    result.restored.push({ file: step.path, changes: step.changes });
  }
  // The new state is the accepted one: a legitimate edit stays, and is not looked at again.
  for (const path of new Set([...stale.map((r) => r.path), ...steps.map((s) => s.path)])) {
    if (gone.has(path)) continue;
    const before = rows.get(path);
    if (unhealable.has(path))
      putWiringFile(db, { path, root: choice.root, stamp: wiringStamp(path), blob: before?.blob ?? null });
    else putWiringFile(db, currentRow(stateDir, choice.root, path));
  }
}

function mtimeOf(path: string): number | null {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null;
}

function restore(
  db: Db,
  stateDir: string,
  root: string,
  step: HealStep,
  opts: HealOptions,
  found: string | null,
  telling: Telling,
): void {
  const changedAt = mtimeOf(step.path);
  const displaced =
    step.displaced === null ? null : writeBlob(blobsDirOf(stateDir), Buffer.from(step.displaced)).sha256;
  writeAtomic(step.path, step.text!, step.executable);
  if (!telling.announce) return;
  append(db, {
    kind: "wiring.restored",
    session: null,
    data: {
      root,
      file: step.path,
      changes: step.changes,
      foundBy: opts.foundBy(),
      via: opts.via,
      lastCommandBy: telling.byTandem ? null : lastToolSessionBefore(db, Math.ceil(changedAt ?? Date.now())),
      changedAt: changedAt === null ? null : Math.round(changedAt),
      displaced,
      found,
      ...(telling.byTandem ? { byTandem: true } : {}),
    },
  });
}
