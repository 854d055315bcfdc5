import type { LoadedConfig } from "../config/load.js";
import { describeConfigProblem, shownSource } from "../config/problems.js";
import type { Finding } from "./finding.js";

/**
 * The config as `doctor` reports it: each problem (a key or value Tandem could not use and fell
 * back from) with its fix, each warning, or that the files were read cleanly.
 */
export function configFindings(
  loaded: Pick<LoadedConfig, "problems" | "warnings" | "files">,
  root: string,
): Finding[] {
  const warnings = loaded.warnings.map((w): Finding => ({ level: "info", check: "config", detail: w }));
  if (loaded.problems.length === 0) {
    const files = loaded.files.map((f) => shownSource(f, root));
    const detail = files.length
      ? `${files.join(" and ")} read without problems`
      : "no config file; the defaults apply";
    return [{ level: "ok", check: "config", detail }, ...warnings];
  }
  const problems = loaded.problems.map((p): Finding => {
    const t = describeConfigProblem(p, root);
    return { level: "problem", check: "config", detail: `${t.where}: ${t.what}`, fix: t.fix };
  });
  return [...problems, ...warnings];
}
