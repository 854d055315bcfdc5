import { Command } from "commander";
import { type Printer, printed, spanned } from "../../core/printed.js";
import {
  type MergeForecast,
  type Overlap,
  overlaps,
  remoteSides,
  type Side,
} from "../../core/remote/forecast.js";
import { TandemError, UsageError } from "../../errors.js";
import { checkoutHolder } from "../../remote/checkout.js";
import { usesNats } from "../../remote/engine.js";
import {
  branchesToForecast,
  defaultTarget,
  fetchForForecast,
  forecastMerge,
  localSides,
  seenPresence,
  short,
  targetRef,
} from "../../remote/forecast.js";
import { remoteOf } from "../../remote/objects.js";
import { presenceLifeMs } from "../../remote/presence-life.js";
import { remotePresenceDocs } from "../../store/remote/rows.js";
import { findProject, type Io, openProjectDb, releaseProjectDb } from "../context.js";
import { helpPrinter, provenPrinter } from "../printer.js";

interface ConflictsOptions {
  json?: boolean;
  target?: string;
  remote?: string;
  fetch: boolean;
  root?: string;
}

export function conflictsCommand(io: Io): Command {
  return new Command("conflicts")
    .description(
      "Forecast conflicts: paths changed in more than one place, and branches that will not merge cleanly",
    )
    .option("--json", "print the forecast as JSON")
    .option(
      "--target <branch>",
      "the branch work merges into (default: the remote's HEAD, else the first of remote.targetBranches that exists)",
    )
    .option("--remote <name>", "the remote to read (default: the branch's remote, else origin)")
    .option("--no-fetch", "use what was fetched last instead of fetching first")
    .addHelpText(
      "after",
      () => `\nExample:\n  ${printed(helpPrinter(io), "conflicts", "--target", "main", "--json")}\n`,
    )
    .action((_o: ConflictsOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ConflictsOptions>();
      const project = findProject(io, opts.root);
      const top = project.resolved.repo?.top;
      if (!top) throw new UsageError("a conflict forecast needs a git repository; run this inside one.");
      const remote = remoteOf(top, opts.remote ?? null);
      if (opts.remote && !remote)
        throw new UsageError(`there is no remote named ${opts.remote}; see \`git remote -v\`.`);
      const fetchError = remote && opts.fetch ? fetchForForecast(top, remote) : null;
      const targetName =
        opts.target ?? defaultTarget(top, remote ?? "origin", project.loaded.config.remoteTargetBranches);
      const target = targetName === null ? null : targetRef(top, remote ?? "origin", targetName);
      if (!target)
        throw new TandemError(
          targetName === null
            ? "cannot tell which branch work merges into: the remote has no HEAD and no branch of remote.targetBranches exists; pass --target BRANCH."
            : `there is no branch ${targetName} here or on the remote; pass --target with the branch work merges into.`,
        );
      const now = Date.now();
      const me = checkoutHolder(project.stateDir, top);
      const freshness = project.loaded.config.freshnessSeconds;
      const local = localOf(io, project, top, me.name, now, freshness);
      const sides: Side[] = [
        ...local.sides,
        // With NATS the last sync round's documents (decision 0063); with git, the fetched refs.
        ...remoteSides(
          usesNats(project.loaded.config) ? storedPresence(io, project) : seenPresence(top),
          me.checkout,
          now,
          { sessionMs: freshness * 1000, documentMs: presenceLifeMs(project.loaded.config) },
        ),
      ];
      const merges = branchesToForecast(top, remote ?? "origin", target).flatMap(
        (b) => forecastMerge(top, target, b) ?? [],
      );
      const found = overlaps(sides);
      if (opts.json) {
        const fetched = { remote, ok: fetchError === null, error: fetchError };
        io.out(`${JSON.stringify({ target: short(target), fetch: fetched, overlaps: found, merges })}\n`);
        return;
      }
      if (fetchError)
        io.err(`tandem: cannot fetch ${remote} (${fetchError}); forecasting from what was fetched before.\n`);
      io.out(formatForecast(found, merges, short(target), local.printer));
    });
}

function localOf(
  io: Io,
  project: ReturnType<typeof findProject>,
  top: string,
  name: string,
  now: number,
  fresh: number,
) {
  const db = openProjectDb(project, { create: false }, io);
  if (!db) return { sides: [], printer: provenPrinter(null, io, project) };
  try {
    return { sides: localSides(db, top, name, now, fresh), printer: provenPrinter(db, io, project) };
  } finally {
    releaseProjectDb(io, db);
  }
}

function storedPresence(io: Io, project: ReturnType<typeof findProject>) {
  const db = openProjectDb(project, { create: false }, io);
  if (!db) return [];
  try {
    return remotePresenceDocs(db);
  } finally {
    releaseProjectDb(io, db);
  }
}

function formatForecast(found: Overlap[], merges: MergeForecast[], target: string, p: Printer): string {
  const lines: string[] = [];
  if (found.length === 0) lines.push("no path is being changed in more than one place");
  else
    lines.push(
      `changed in more than one place (agree who goes first, or reserve it: ${spanned(p, "reserve", { slot: "PATH" })}):`,
    );
  for (const o of found) {
    lines.push(`  ${o.path}`);
    for (const s of o.sides)
      lines.push(
        `    ${s.machine}: ${s.session}${s.branch ? ` on ${s.branch}` : ""}${s.task ? `, task "${s.task}"` : ""}`,
      );
  }
  lines.push(merges.length === 0 ? `no other branch to merge into ${target}` : `merging into ${target}:`);
  for (const m of merges)
    lines.push(
      m.clean
        ? `  ${m.branch}: merges cleanly`
        : `  ${m.branch}: conflicts with ${m.target} in ${m.files.join(", ")} (rebase ${m.branch} on ${m.target} and resolve before merging)`,
    );
  return `${lines.join("\n")}\n`;
}
