import { Command } from "commander";
import { relativeKey } from "../../core/paths/lexical.js";
import { resolveTarget } from "../../core/paths/target.js";
import { type Printer, printed, spanned } from "../../core/printed.js";
import { TandemError, UsageError } from "../../errors.js";
import { physicalPath } from "../../facts/physical.js";
import { blobsDirOf } from "../../safety/preserve.js";
import { RecoverError, recoverFile } from "../../safety/recover.js";
import { resolveCaller } from "../../sessions/resolve.js";
import type { Db } from "../../store/db.js";
import { findSessions, type SessionRow } from "../../store/sessions/rows.js";
import { findProject, type Io, openProjectDb, type Project } from "../context.js";
import { callerPrinter, helpPrinter, printersOf } from "../printer.js";
import { callerSession, ownSession } from "../session-opts.js";
import { listEveryOwner, listVersions } from "./recover-list.js";
import { goneOwnerToRecover } from "./recover-owner.js";

interface RecoverOptions {
  list?: boolean;
  version?: string;
  session?: string;
  root?: string;
}

function ownerOf(db: Db, io: Io, project: Project, flag: string | undefined): SessionRow {
  if (!flag) return callerSession(db, io, project, undefined, null).session;
  const found = findSessions(db, flag);
  // Naming a session with --session is how a person acts for one (printer.ts readerOf).
  if (found.length !== 1)
    throw new UsageError(
      `--session ${flag} matches ${found.length} sessions; see ${spanned(printersOf(project)("person"), "sessions", "--all")}.`,
    );
  return found[0]!;
}

/**
 * `--session` names the owner; an agent recovers its own bytes; a person's shell gets the gone
 * session whose bytes the file holds or held (decision 0042), else the usual caller rule.
 */
function ownerToRecover(db: Db, io: Io, project: Project, flag: string | undefined, key: string): SessionRow {
  if (flag) return ownerOf(db, io, project, flag);
  const own = ownSession(db, io, project, undefined, null);
  if (own) return own.session;
  return goneOwnerToRecover(io, db, project, key) ?? ownerOf(db, io, project, undefined);
}

function parseVersion(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--version ${raw} is not a version number; see --list.`);
  return n;
}

function keyOf(project: Project, io: Io, raw: string): string {
  const root = project.resolved.root;
  const r = resolveTarget(raw, io.cwd, [root], {}, physicalPath);
  if (!r.ok) throw new UsageError(`cannot recover ${raw}: ${r.reason}`);
  return relativeKey(root, r.target.physical);
}

export function recoverCommand(io: Io): Command {
  return new Command("recover")
    .description("Put back your uncommitted bytes of PATH that another agent's command overwrote")
    .argument("[path]", "the file to put back (omit with --list to see every preserved file)")
    .option("--list", "list the preserved versions instead of recovering")
    .option("--version <n>", "recover this version (default: the one from before the last overwrite)")
    .option(
      "--session <owner>",
      "whose preserved bytes (default: the calling agent's; from a person's shell, the ended session that left PATH, and --list shows every session's)",
    )
    .addHelpText("after", () => {
      const p = helpPrinter(io);
      return `\nThe bytes now in the file are kept as a new version first, never overwritten silently.\n\nExample:\n  ${printed(p, "recover", "src/parser.ts", "--list")}\n  ${printed(p, "recover", "src/parser.ts", "--version", "2")}\n`;
    })
    .action((raw: string | undefined, _o: RecoverOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<RecoverOptions>();
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: false });
      if (!db) throw new TandemError("this repository has no Tandem store yet: nothing was ever preserved.");
      try {
        const key = raw === undefined ? null : keyOf(project, io, raw);
        if (opts.list || key === null) {
          // A person's shell acts for no session: it sees every owner's versions.
          const own = ownSession(db, io, project, undefined, null);
          const p = callerPrinter(project, own);
          const owner = opts.session ? ownerOf(db, io, project, opts.session) : own?.session;
          if (owner) listVersions(io, db, project, owner, key);
          else listEveryOwner(io, db, project, key, p);
          return;
        }
        const owner = ownerToRecover(db, io, project, opts.session, key);
        const actor = resolveCaller(db, {
          env: io.env,
          pid: io.pid,
          freshnessSeconds: project.loaded.config.freshnessSeconds,
          allowSingleLive: false,
          printerFor: printersOf(project),
        });
        const p = callerPrinter(project, actor);
        const result = recover(
          db,
          project,
          owner,
          key,
          parseVersion(opts.version),
          actor?.session.id ?? null,
          p,
        );
        if (result.unchanged) io.out(`${key} already holds version ${result.version}; nothing to do.\n`);
        else io.out(`recovered ${key}: version ${result.version} (${result.bytes} bytes)\n`);
        if (result.kept !== null)
          io.out(
            `the bytes it held are kept as version ${result.kept}: ${spanned(p, "recover", { path: key }, "--version", String(result.kept))} brings them back.\n`,
          );
      } finally {
        db.close();
      }
    });
}

function recover(
  db: Db,
  project: Project,
  owner: SessionRow,
  key: string,
  version: number | undefined,
  actor: string | null,
  p: Printer,
) {
  try {
    return recoverFile({
      db,
      blobsDir: blobsDirOf(project.stateDir),
      worktree: project.resolved.root,
      key,
      owner: owner.id,
      actor,
      now: Date.now(),
      ...(version === undefined ? {} : { version }),
    });
  } catch (err) {
    if (err instanceof RecoverError)
      throw new TandemError(
        `cannot recover ${key} for ${owner.name}: ${err.message}.\nWhat to do: ${spanned(p, "recover", { path: key }, "--list")} shows the other versions (\`--version N\` restores one); ${spanned(p, "doctor")} lists every version whose copy is missing.`,
      );
    throw err;
  }
}
