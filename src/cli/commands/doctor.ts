import { Command } from "commander";
import { checkStore, type StoreReport } from "../../doctor/store-checks.js";
import { findProject, type Io } from "../context.js";

interface DoctorOptions {
  rebuild?: boolean;
  json?: boolean;
  root?: string;
}

function formatReport(root: string, r: StoreReport): string {
  const lines = [`Tandem doctor — root ${root}`, `state: ${r.file}`];
  for (const f of r.findings) {
    const mark = f.level === "problem" ? "✗" : f.level === "ok" ? "✓" : "·";
    lines.push(`${mark} ${f.check}: ${f.detail}`);
    if (f.fix) lines.push(`    fix: ${f.fix}`);
  }
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
  return `${lines.join("\n")}\n`;
}

export function doctorCommand(io: Io): Command {
  return new Command("doctor")
    .description("Check Tandem's state store (integrity, schema, counts)")
    .option("--rebuild", "drop the live views and replay them from the event ledger")
    .option("--json", "print the report as JSON")
    .addHelpText("after", "\nExample:\n  tandem doctor --rebuild\n")
    .action((_opts: DoctorOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<DoctorOptions>();
      const project = findProject(io, opts.root);
      const report = checkStore(project.stateDir, { rebuild: opts.rebuild === true });
      io.out(
        opts.json
          ? `${JSON.stringify({ root: project.resolved.root, ...report }, null, 2)}\n`
          : formatReport(project.resolved.root, report),
      );
      if (report.findings.some((f) => f.level === "problem")) io.exitCode = 1;
    });
}
