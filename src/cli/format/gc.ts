import { type Printer, spanned } from "../../core/printed.js";
import type { GcReport } from "../../store/upkeep/gc.js";
import { sizeText } from "../../subagents/lifecycle/report.js";

/** What `tandem gc` freed (or, with --dry-run, would free), one line per kind of thing. */
export function formatGc(r: GcReport, p: Printer): string {
  const head = r.dryRun
    ? `tandem gc --dry-run: nothing changed; a run would free, for history before ${new Date(r.cutoff).toISOString()}:`
    : `tandem gc: freed, for history before ${new Date(r.cutoff).toISOString()}:`;
  const lines = [
    head,
    `  ${r.sessions} ended session(s) compacted: ${r.events} event(s) replaced by one summary each`,
    `  ${r.subagents} applied and removed sub-agent(s): artifacts expired`,
    `  ${r.preserved} preserved version(s) of ended sessions' files expired`,
    `  ${r.blobs} unreferenced blob(s) deleted: ${sizeText(r.blobBytes)}`,
  ];
  if (!r.dryRun) {
    lines.push(`  store: ${sizeText(r.dbBytesBefore)} before, ${sizeText(r.dbBytesAfter)} after`);
  } else {
    lines.push(`  store now: ${sizeText(r.dbBytesBefore)}`);
  }
  if (r.freeBytes > 0 && r.vacuum !== "incremental") {
    lines.push(
      `  ${sizeText(r.freeBytes)} of the store is free space SQLite reuses before the file grows. ` +
        `This store predates incremental vacuum: ${spanned(p, "gc", "--vacuum")} shrinks it once and enables it ` +
        "(it blocks agents' hooks while it rewrites the file: run it when they are idle).",
    );
  }
  if (r.sessions + r.subagents + r.preserved + r.blobs === 0)
    lines.push(r.dryRun ? "  (there would be nothing to free)" : "  (there was nothing to free)");
  return `${lines.join("\n")}\n`;
}
