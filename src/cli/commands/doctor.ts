import { Command } from "commander";
import { spanned } from "../../core/printed.js";
import { doctorChecks } from "../../doctor/checks.js";
import { DEFAULT_SINCE_MS, parseSince } from "../../doctor/hook-errors.js";
import type { Finding, StoreReport } from "../../doctor/store-checks.js";
import { resetStore } from "../../store/repair/reset.js";
import { printerOf } from "../../wiring/agent-shell.js";
import { findProject, type Io } from "../context.js";

interface DoctorOptions {
  rebuild?: boolean;
  reset?: boolean;
  json?: boolean;
  root?: string;
  since?: string;
}

function findingLines(findings: readonly Finding[]): string[] {
  const lines: string[] = [];
  for (const f of findings) {
    const mark = f.level === "problem" ? "✗" : f.level === "ok" ? "✓" : "·";
    lines.push(`${mark} ${f.check}: ${f.detail}`);
    if (f.fix) lines.push(`    fix: ${f.fix}`);
  }
  return lines;
}

function formatReport(root: string, r: StoreReport, other: readonly Finding[]): string {
  const lines = [`Tandem doctor — root ${root}`, `state: ${r.file}`, ...findingLines(r.findings)];
  if (r.counts) {
    lines.push(
      `events: ${r.counts.events}, sessions: ${r.counts.sessions}, active claims: ${r.counts.claims}`,
    );
    for (const [kind, n] of Object.entries(r.counts.byKind)) lines.push(`  ${kind.padEnd(20)} ${n}`);
  }
  if (r.rebuild) {
    lines.push(
      `rebuild: replayed ${r.rebuild.replayed} events; projections ${r.rebuild.identical ? "identical to the live views" : "DIFFERED from the live views and were replaced"}`,
    );
  }
  lines.push(...findingLines(other));
  const problems = [...r.findings, ...other].filter((f) => f.level === "problem").length;
  lines.push(
    problems === 0
      ? "No problems found."
      : `${problems} problem(s) found; each is listed above with its fix.`,
  );
  return `${lines.join("\n")}\n`;
}

export function doctorCommand(io: Io): Command {
  return new Command("doctor")
    .description(
      "Check Tandem's state store, hook wiring, Codex trust and sessions; each problem comes with its fix",
    )
    .option("--rebuild", "drop the live views and replay them from the event ledger")
    .option(
      "--reset",
      "acknowledge a lost, replaced or corrupt store (its files are kept aside, a new store starts) and the recorded hook failures",
    )
    .option(
      "--since <when>",
      "count hook errors since this time: a duration back from now (30m, 2h, 7d) or a date/time (default: 24h)",
    )
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  tandem doctor\n  tandem doctor --rebuild\n  tandem doctor --reset\n  tandem doctor --since 2h\n",
    )
    .action(async (_opts: DoctorOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<DoctorOptions>();
      const now = Date.now();
      const project = findProject(io, opts.root);
      // Read by a person at a terminal, as every doctor fix is.
      const printer = printerOf(project.resolved.root, project.stateDir, "person");
      const since = opts.since === undefined ? now - DEFAULT_SINCE_MS : parseSince(opts.since, now);
      if (since === null) {
        io.err(
          `tandem doctor: --since "${opts.since}" is neither a duration (30m, 2h, 7d) nor a date/time; try ${spanned(printer, "doctor", "--since", "24h")}\n`,
        );
        io.exitCode = 2;
        return;
      }
      const reset = opts.reset ? resetStore(project.stateDir, new Date(), printer) : null;
      const { store, other } = await doctorChecks({
        root: project.resolved.root,
        repoTop: project.resolved.repo?.top ?? null,
        stateDir: project.stateDir,
        loaded: project.loaded,
        env: io.env,
        now,
        since,
        rebuild: opts.rebuild === true,
      });
      io.out(
        opts.json
          ? `${JSON.stringify({ root: project.resolved.root, ...(reset ? { reset } : {}), ...store, checks: other }, null, 2)}\n`
          : `${reset ? reset.map((a) => `reset: ${a}\n`).join("") : ""}${formatReport(project.resolved.root, store, other)}`,
      );
      if ([...store.findings, ...other].some((f) => f.level === "problem")) io.exitCode = 1;
    });
}
