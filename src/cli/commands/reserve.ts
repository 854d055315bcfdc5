import { relative, sep } from "node:path";
import { Command } from "commander";
import { parseDuration } from "../../core/duration.js";
import { resolveTarget } from "../../core/paths/target.js";
import { type Printer, printed, spanned } from "../../core/printed.js";
import { errorMessage, TandemError, UsageError } from "../../errors.js";
import { physicalPath } from "../../facts/physical.js";
import { checkoutHolder } from "../../remote/checkout.js";
import { natsReleaseAt, natsReserveAt, usesNats } from "../../remote/engine.js";
import { type LeaseResult, releaseRemote, reserveRemote } from "../../remote/leases.js";
import { remoteOf } from "../../remote/objects.js";
import { recordLeases } from "../../store/remote/rows.js";
import { findProject, type Io, openProjectDb, type Project, releaseProjectDb } from "../context.js";
import { failureMessage, lostLine } from "../format/leases.js";
import { commandPrinter, helpPrinter } from "../printer.js";
import { ownSession } from "../session-opts.js";

type LostLease = Extract<LeaseResult, { ok: true }>["lost"][number];

interface ReserveOptions {
  ttl: string;
  release?: boolean;
  json?: boolean;
  remote?: string;
  session?: string;
  root?: string;
}

export function reserveCommand(io: Io): Command {
  return new Command("reserve")
    .description(
      "Reserve PATHs exclusively across every clone of the remote (refs/tandem/lease/*, or NATS with remote.engine nats)",
    )
    .argument("<paths...>", "files or directories, relative to here")
    .option("--ttl <duration>", "how long the reservation lasts (90s, 45m, 2h, 1d)", "2h")
    .option("--release", "give up your reservations on PATHs instead")
    .option("--json", "print the outcome as JSON")
    .option("--remote <name>", "the remote to share through (default: the branch's remote, else origin)")
    .option("--session <id>", "the session reserving (default: the calling agent, if any)")
    .addHelpText("after", () => {
      const p = helpPrinter(io);
      return `\nExamples:\n  ${printed(p, "reserve", "src/parser.ts", "--ttl", "3h")}\n  ${printed(p, "reserve", "--release", "src/parser.ts")}\n`;
    })
    .action(async (paths: string[], _o: ReserveOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ReserveOptions>();
      const project = findProject(io, opts.root);
      const top = project.resolved.repo?.top;
      if (!top)
        throw new UsageError(
          "reservations are shared through a git remote; run this inside a git repository.",
        );
      const ttlMs = parseDuration(opts.ttl);
      if (ttlMs === null)
        throw new UsageError(`--ttl ${opts.ttl} is not a duration; use e.g. 90s, 45m, 2h or 1d.`);
      if (usesNats(project.loaded.config)) return overNats(io, project, top, paths, ttlMs, opts);
      const remote = remoteOf(top, opts.remote ?? null);
      if (!remote)
        throw new TandemError(
          opts.remote
            ? `there is no remote named ${opts.remote}; see \`git remote -v\`.`
            : "this repository has no remote to share reservations through; add one (`git remote add origin URL`) or pass --remote.",
        );
      const rel = paths.map((raw) => repoPath(raw, io, project, top));
      const holder = checkoutHolder(project.stateDir, top);
      const call = { repo: top, remote };
      const result = opts.release
        ? releaseRemote(call, holder, rel)
        : reserveRemote(call, { paths: rel, holder, ...callerOf(io, project, opts.session), ttlMs });
      const printer = commandPrinter(io, project);
      if (result.ok) showLocally(io, project, result.now, printer);
      report(io, result, remote, opts, printer);
    });
}

/** The NATS engine (decision 0063): the same decisions and report, no Git remote involved. */
async function overNats(
  io: Io,
  project: Project,
  top: string,
  paths: string[],
  ttlMs: number,
  opts: ReserveOptions,
): Promise<void> {
  const config = project.loaded.config;
  const rel = paths.map((raw) => repoPath(raw, io, project, top));
  const holder = checkoutHolder(project.stateDir, top);
  const result = opts.release
    ? await natsReleaseAt(config, top, holder, rel)
    : await natsReserveAt(config, top, { paths: rel, holder, ...callerOf(io, project, opts.session), ttlMs });
  if (!result.ok) throw new TandemError(result.message);
  const printer = commandPrinter(io, project);
  showLocally(io, project, result.now, printer);
  report(io, result, "nats", opts, printer);
}

/** A path relative to the repository top, resolved like `tandem release` resolves its paths. */
function repoPath(raw: string, io: Io, project: Project, top: string): string {
  const r = resolveTarget(raw, io.cwd, [project.resolved.root], {}, physicalPath);
  if (!r.ok) throw new UsageError(`cannot reserve ${raw}: ${r.reason}`);
  const rel = relative(top, r.target.physical).split(sep).join("/");
  if (rel === "" || rel.startsWith("../") || rel === "..")
    throw new UsageError(`cannot reserve ${raw}: it is not inside the repository ${top}.`);
  return rel;
}

/**
 * The leases as the remote holds them now go into this checkout's view at once: `status`, `watch`
 * and the board show a reservation without waiting for the next sync round.
 */
function showLocally(
  io: Io,
  project: Project,
  doc: { text: string; commit: string } | null,
  p: Printer,
): void {
  const db = openProjectDb(project, { create: false }, io);
  if (!db) return;
  try {
    recordLeases(db, doc, Date.now());
  } catch (err) {
    io.err(
      `tandem: warning: the reservation is on the remote, but this checkout's view was not updated (${errorMessage(err)}); ${spanned(p, "sync")} updates it.\n`,
    );
  } finally {
    releaseProjectDb(io, db);
  }
}

/** The calling agent's session and task; a person's shell reserves with neither. */
function callerOf(io: Io, project: Project, flag: string | undefined) {
  const db = openProjectDb(project, { create: false }, io);
  if (!db) return { session: null, task: null };
  try {
    const own = ownSession(db, io, project, flag, "reserve");
    return { session: own?.session.name ?? null, task: own?.session.task ?? null };
  } finally {
    releaseProjectDb(io, db);
  }
}

function report(
  io: Io,
  result: LeaseResult | { ok: true; won: string[]; lost: LostLease[] },
  remote: string,
  opts: ReserveOptions,
  p: Printer,
): void {
  if (!result.ok) throw new TandemError(failureMessage(result.failure));
  const now = Date.now();
  if (result.lost.length > 0) io.exitCode = 1;
  if (opts.json) {
    const lost = result.lost.map((l) => ({ path: l.path, holder: l.by }));
    io.out(`${JSON.stringify({ remote, [opts.release ? "released" : "reserved"]: result.won, lost })}\n`);
    return;
  }
  const verb = opts.release ? "released" : "reserved";
  for (const p of result.won) io.out(`${verb} ${p}${opts.release ? "" : ` until ${until(now, opts.ttl)}`}\n`);
  if (opts.release && result.won.length === 0) io.out("you held no reservation there; nothing to release\n");
  for (const l of result.lost) io.out(lostLine(l.path, l.by, now, p));
}

function until(now: number, ttl: string): string {
  return new Date(now + (parseDuration(ttl) ?? 0)).toISOString().replace(/\.\d+Z$/, "Z");
}
