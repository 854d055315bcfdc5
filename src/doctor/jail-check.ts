import { type Printer, spanned } from "../core/printed.js";
import { probeJail } from "../jail/probe.js";
import type { Finding } from "./finding.js";

/**
 * Whether the kernel can guard agents' commands here (`tandem jail`, docs/decisions/0054). Not a
 * problem when it cannot yet: the hooks' reader still guards; the finding says what is missing.
 */
export function jailFinding(env: Readonly<Record<string, string | undefined>>, printer: Printer): Finding {
  const v = probeJail(env, printer);
  return v.ok
    ? {
        level: "ok",
        check: "kernel guard",
        detail: `available: ${spanned(printer, "jail", "--", { slot: "COMMAND" })} runs a command read-only to peers' work (${spanned(printer, "jail", "--plan", "--", "true")} lists what)`,
      }
    : { level: "info", check: "kernel guard", detail: `not available: ${v.why}`, fix: v.fix };
}
