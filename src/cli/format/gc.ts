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
    `  ${r.policyVersions} saved version(s) beyond the retention.* bounds expired; saved versions now hold ${sizeText(r.savedBytes)}`,
    `  ${r.blobs} unreferenced blob(s) deleted: ${sizeText(r.blobBytes)}`,
  ];
  for (const o of r.sessionsOver)
    lines.push(
      `  session ${o.owner} still keeps ${sizeText(o.bytes)}, over retention.sessionBytes: only its files' latest versions and versions a clobber replaced are left; raise retention.sessionBytes if that is expected; the rest goes once the session ends and the age bound passes`,
    );
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
  if (r.sessions + r.subagents + r.preserved + r.policyVersions + r.blobs === 0)
    lines.push(r.dryRun ? "  (there would be nothing to free)" : "  (there was nothing to free)");
  return `${lines.join("\n")}\n`;
}
