import { type Printer, spanned } from "../core/printed.js";
import { probeJail } from "../jail/probe.js";
import type { Finding } from "./finding.js";

/**
 * Whether the kernel can guard agents' commands here (`tandem jail`, docs/decisions/0054). Not a
 * problem when it cannot yet: the hooks' reader still guards; the finding says what is missing.
 */
export function jailFinding(env: Readonly<Record<string, string | undefined>>, printer: Printer): Finding {
  const v = probeJail(env, printer);
  if (v.ok && v.seatbelt)
    return {
      level: "info",
      check: "kernel guard",
      detail:
        "partial (macOS): with \"guard\": \"kernel\", agents' commands run under a seatbelt profile that refuses writes to Tandem's state, its installation and the hook wiring; peers' uncommitted files are guarded by the hooks' reader only",
    };
  return v.ok
    ? {
        level: "ok",
        check: "kernel guard",
        detail: `available: ${spanned(printer, "jail", "--", { slot: "COMMAND" })} runs a command read-only to peers' work (${spanned(printer, "jail", "--plan", "--", "true")} lists what)`,
      }
    : { level: "info", check: "kernel guard", detail: `not available: ${v.why}`, fix: v.fix };
}
