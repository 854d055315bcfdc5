import { existsSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { type ConfigProblem, formatConfigProblem } from "../../config/problems.js";
import { PROJECT_CONFIG } from "../../config/root.js";
import { formatFindings } from "../../core/finalization/format.js";
import type { Findings } from "../../core/finalization/verdict.js";
import { spanned } from "../../core/printed.js";
import { renderStatusBox, type StatusModel } from "../../core/ritual/status-box.js";
import { endTurnCheck } from "../../finalization/check.js";
import { noticeLeft } from "../../safety/left-keep.js";
import { blobsDirOf } from "../../safety/preserve.js";
import { envNamesSession } from "../../sessions/resolve.js";
import { statusModel } from "../../status/model.js";
import { renderOverview } from "../../status/overview.js";
import { readOverview } from "../../status/overview-data.js";
import { type Db, dbFile } from "../../store/db.js";
import { type StoreError, storeErrorOf } from "../../store/failure.js";
import { identityFile, markCorrupt } from "../../store/identity.js";
import { append, write } from "../../store/ledger/append.js";
import type { SessionRow } from "../../store/sessions/rows.js";
import { printerOf } from "../../wiring/agent-shell.js";
import { findProject, type Io, openProjectDb, type Project, releaseProjectDb } from "../context.js";
import { callerPrinter } from "../printer.js";
import { callerSession, ownSession } from "../session-opts.js";

interface StatusOptions {
  endTurn?: boolean;
  json?: boolean;
  session?: string;
  root?: string;
}

interface Shown {
  model: StatusModel;
  findings: Findings | Record<string, never>;
  config: { root: string; problems: readonly ConfigProblem[] };
}

function statusObject(s: SessionRow, { model: m, findings, config }: Shown) {
  return {
    ok: true,
    session: { id: s.id, name: s.name, client: s.client, task: s.task, activity: s.activity },
    claims: m.claims,
    awaiting: m.awaiting,
    ignored: m.ignored,
    peers: m.peers,
    subagents: m.subagents,
    warnings: m.warnings,
    left: m.left ?? [],
    configProblems: config.problems.map((p) => ({ ...p, message: formatConfigProblem(p, config.root) })),
    findings,
  };
}

/** docs/product.md §5: one object whatever the outcome; the status keys stay at the top level too. */
function statusJson(s: SessionRow, shown: Shown): string {
  const status = statusObject(s, shown);
  return `${JSON.stringify({ ...status, status })}\n`;
}

/** The box, then each config problem in full: the box has room for where and which key only. */
function statusText({ model, config }: Shown): string {
  if (config.problems.length === 0) return renderStatusBox(model);
  const lines = config.problems.map((p) => `- ${formatConfigProblem(p, config.root)}`);
  return `${renderStatusBox(model)}Config problems (coordination stays on; Tandem ignores what it cannot use and falls back to its defaults):\n${lines.join("\n")}\n`;
}

/** Relative to the root when inside it, as the claims row shows paths. */
function displayPath(i: { repo: string; path: string }, root: string): string {
  const abs = `${i.repo === "/" ? "" : i.repo}/${i.path}`;
  return abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : abs;
}

function showOverview(
  io: Io,
  opts: StatusOptions,
  project: Project,
  db: Db | null,
  failed: StoreError | null,
) {
  const root = project.resolved.root;
  const now = Date.now();
  const left = db ? personsLeftWork(db, project, now) : [];
  const overview = readOverview(db, project.loaded, root, { stateDir: project.stateDir, failed }, now, left);
  io.out(
    opts.json
      ? `${JSON.stringify({ ok: true, overview: { root, ...overview } }, null, 2)}\n`
      : renderOverview(root, overview, now, printerOf(root, project.stateDir, "person")),
  );
}

/**
 * Left work found from a person's shell is saved too, as at any hook (decision 0029). A read-only
 * store cannot save it: the overview still shows what it can read, and lists the store problem.
 */
function personsLeftWork(db: Db, project: Project, now: number) {
  const q = {
    worktree: project.resolved.root,
    repoTop: project.resolved.repo?.top ?? null,
    now,
    freshnessSeconds: project.loaded.config.freshnessSeconds,
  };
  try {
    return noticeLeft(db, q, blobsDirOf(project.stateDir), null);
  } catch (err) {
    if (storeErrorOf(err, dbFile(project.stateDir))?.problem === "readonly") return [];
    throw err;
  }
}

/**
 * A store that cannot be read still gives a person the overview, with the store problem and its
 * fix (exit 0: it is an overview); an agent, or a request for one session, gets the refusal.
 */
function overviewDespite(io: Io, opts: StatusOptions, project: Project, err: unknown): void {
  const failed = storeErrorOf(err, dbFile(project.stateDir));
  if (!failed || opts.endTurn || opts.session || envNamesSession(io.env)) throw err;
  // Found now, so every gate refuses from here on, as `tandem doctor` would mark it.
  if (failed.lasting) markCorrupt(project.stateDir, failed.detail);
  showOverview(io, opts, project, null, failed);
}

/**
 * A repository nobody set up: no project config and no store (no init, no hook ever ran). A
 * person's status there says so and creates nothing (no store, no server): an empty overview's
 * "No problems." would read as if Tandem were watching.
 */
function neverSetUp(project: Project): boolean {
  return (
    !existsSync(join(project.resolved.root, PROJECT_CONFIG)) &&
    !existsSync(dbFile(project.stateDir)) &&
    !existsSync(identityFile(project.stateDir))
  );
}

function showNotSetUp(io: Io, opts: StatusOptions, root: string, stateDir: string): void {
  const message = `Tandem is not set up in ${root}: no ${PROJECT_CONFIG} and no store, so no agent here is coordinated.`;
  // Only a person wires a repository (agents are refused init): spelled for their terminal.
  const fix = `Run ${spanned(printerOf(root, stateDir, "person"), "init")} here to wire the agent clients and git hooks.`;
  io.out(
    opts.json
      ? `${JSON.stringify({ ok: true, setUp: false, root, message, fix }, null, 2)}\n`
      : `${message}\n${fix}\n`,
  );
}

async function runStatus(io: Io, opts: StatusOptions, project: Project, db: Db): Promise<void> {
  // A person in a plain shell gets the overview, like `git status`, even with one agent live;
  // --end-turn proves one session's own work, so it still needs (and guesses) a session.
  const own = opts.endTurn
    ? callerSession(db, io, project, opts.session, "status --end-turn")
    : ownSession(db, io, project, opts.session, null);
  if (!own) {
    showOverview(io, opts, project, db, null);
    return;
  }
  const { session } = own;
  const ctx = {
    root: project.resolved.root,
    repoTop: project.resolved.repo?.top ?? null,
    config: project.loaded.config,
  };
  // The box is built before the check starts its git process, not while it runs: a spawn
  // write-protects this process's memory, and on the bench machine every page written after it
  // faults, so the same store reads cost several times more after a spawn (docs/decisions/0006).
  const problems = project.loaded.problems;
  const printer = callerPrinter(project, own);
  const model = statusModel(db, session, {
    ...ctx,
    configProblems: problems,
    endTurn: opts.endTurn === true,
    printer,
  });
  const check = opts.endTurn ? await endTurnCheck(db, session, ctx) : null;
  if (check && !check.ok) {
    // A failed check leaves no evidence behind: no status event, nothing on stdout but JSON.
    if (opts.json) io.out(`${JSON.stringify({ ok: false, findings: check.findings, status: null })}\n`);
    else io.err(formatFindings(check.findings, printer));
    io.exitCode = 1;
    return;
  }
  if (check) model.ignored = check.findings.ignored.map((i) => displayPath(i, ctx.root));
  // An observation (decision 0018): no fsync.
  write(
    db,
    (tx) => append(tx, { kind: "status.checked", session: session.id, data: { end_turn: check !== null } }),
    "gating",
  );
  const shown = { model, findings: check?.findings ?? {}, config: { root: ctx.root, problems } };
  io.out(opts.json ? statusJson(session, shown) : statusText(shown));
}

export function statusCommand(io: Io): Command {
  return new Command("status")
    .description(
      "Show this session's status box and record that it was checked; outside an agent, the repository overview",
    )
    .option("--end-turn", "first prove this session's own Git work is committed and pushed")
    .option("--json", "print the status as one JSON object")
    .option("--session <id>", "the session (default: the calling agent's)")
    .addHelpText("after", "\nExamples:\n  tandem status\n  tandem status --end-turn --json\n")
    .action(async (_o: StatusOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<StatusOptions>();
      const project = findProject(io, opts.root);
      const person = !opts.endTurn && !opts.session && !envNamesSession(io.env);
      if (person && neverSetUp(project)) {
        showNotSetUp(io, opts, project.resolved.root, project.stateDir);
        return;
      }
      let db: Db;
      try {
        db = openProjectDb(project, { create: true }, io)!;
      } catch (err) {
        overviewDespite(io, opts, project, err);
        return;
      }
      try {
        await runStatus(io, opts, project, db);
      } catch (err) {
        overviewDespite(io, opts, project, err);
      } finally {
        releaseProjectDb(io, db);
      }
    });
}
