import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ClientName } from "../clients/index.js";
import { PROJECT_CONFIG } from "../config/root.js";
import { spanned } from "../core/printed.js";
import { readBlob, writeBlob } from "../store/blobs/files.js";
import type { Db, WriteTx } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import { sessionById } from "../store/sessions/rows.js";
import {
  dropWiringFile,
  lastFound,
  lastToolSessionBefore,
  openCallAt,
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
  return write(db, (tx) => {
    const stale = staleFiles(wiringFiles(db), wiringStamp);
    const result: HealResult = { restored: [], unhealable: [] };
    for (const choice of wiringChoices(db)) {
      const mine = stale.filter((r) => r.root === choice.root);
      if (mine.length > 0) healRoot(tx, stateDir, choice, mine, opts, result);
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
  /** The session whose open tool call the change landed in, when that is known (decision 0070). */
  by?: string;
}

function tellingOf(s: Snapshot, path: string, recorded: boolean, by?: string): Telling {
  const policy = s.geminiPolicy;
  const byTandem = policy?.path === path && policy.text !== null && isOurPolicyFile(policy.text);
  return { announce: recorded, byTandem, ...(by === undefined ? {} : { by }) };
}

/**
 * How long a tool call counts as running without its end arriving: Claude Code's longest shell
 * timeout (10 min). Past it, a change is taken as a person's.
 */
const OPEN_CALL_MS = 10 * 60_000;

/**
 * The project config as an agent's command left it (decision 0070): changed while some session's
 * tool call was open, by the change time the writer cannot set back (ctime). Every key it changed
 * is put back; a person's edit, made while no agent's call runs, is accepted as it is.
 */
function agentConfigEdit(
  db: Db,
  root: string,
  stale: readonly WiringFileRow[],
): { path: string; by: string; why: string } | null {
  const path = join(root, PROJECT_CONFIG);
  const row = stale.find((r) => r.path === path);
  const st = statSync(path, { throwIfNoEntry: false });
  if (!row || !st || row.blob === null || contentBlob(path) === row.blob) return null;
  const by = openCallAt(db, Math.ceil(st.ctimeMs), OPEN_CALL_MS);
  if (by === null) return null;
  const name = sessionById(db, by)?.name ?? by;
  const why = `changed while ${name}'s tool call ran: the project's settings are a person's to change, so every key is back as last accepted (a person edits it while no agent's command runs)`;
  return { path, by, why };
}

function healRoot(
  db: WriteTx,
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
  const edit = agentConfigEdit(db, choice.root, stale);
  const reverted = new Map(edit ? [[edit.path, edit.why]] : []);
  const steps = healPlan(snapshot, choice.launcher, record, lastGood, agent, reverted);
  const unhealable = new Set<string>();
  for (const step of steps) {
    const found = contentBlob(step.path);
    const why =
      step.text === null
        ? (step.unhealable ?? "")
        : // An agent's own retries are no fight with another writer: they are put back every time.
          edit?.path !== step.path && contested(found, lastFound(db, step.path, FIGHT_LIMIT))
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
      tellingOf(snapshot, step.path, rows.has(step.path), edit?.path === step.path ? edit.by : undefined),
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
  db: WriteTx,
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
      lastCommandBy: telling.byTandem
        ? null
        : (telling.by ?? lastToolSessionBefore(db, Math.ceil(changedAt ?? Date.now()))),
      changedAt: changedAt === null ? null : Math.round(changedAt),
      displaced,
      found,
      ...(telling.byTandem ? { byTandem: true } : {}),
    },
  });
}
