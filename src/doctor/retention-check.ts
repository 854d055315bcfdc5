/**
 * The bound on saved bytes (decision 0065): saved versions past `retention.sessionBytes` or
 * `retention.repositoryBytes` are a problem, with the command that frees them.
 */
import type { Config } from "../config/schema.js";
import { type Printer, spanned } from "../core/printed.js";
import { overBounds, retentionPolicy } from "../core/upkeep/policy.js";
import { savedVersions } from "../store/upkeep/gc-facts.js";
import { sizeText } from "../subagents/lifecycle/report.js";
import type { Finding } from "./finding.js";
import { readStore } from "./read-store.js";

const SHOWN = 3;

export function retentionFindings(stateDir: string, config: Config, p: Printer): Finding[] {
  const policy = retentionPolicy(config);
  const bounds = readStore(stateDir, (db) => overBounds(savedVersions(db), policy));
  if (bounds === null) return [];
  const held = `saved versions hold ${sizeText(bounds.repositoryBytes)}`;
  const over = [
    ...(bounds.repositoryOver
      ? [`the repository is over retention.repositoryBytes (${sizeText(policy.repositoryBytes)})`]
      : []),
    ...bounds.sessionsOver
      .slice(0, SHOWN)
      .map(
        (s) =>
          `session ${s.owner} keeps ${sizeText(s.bytes)}, over retention.sessionBytes (${sizeText(policy.sessionBytes)})`,
      ),
  ];
  if (over.length === 0)
    return [{ level: "ok", check: "retention", detail: `${held}, within retention.* bounds` }];
  const more =
    bounds.sessionsOver.length > SHOWN ? `, and ${bounds.sessionsOver.length - SHOWN} more session(s)` : "";
  return [
    {
      level: "problem",
      check: "retention",
      detail: `${held}: ${over.join("; ")}${more}`,
      fix: `run ${spanned(p, "gc")}: it lets go the saved versions the retention policy no longer needs (see them first with ${spanned(p, "gc", "--dry-run")}); if what is left is still over, raise the retention.* bounds in .tandem/config.jsonc`,
    },
  ];
}
