import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { coreFlag } from "../core/git/hooks-path.js";
import { type FoldRule, NO_FOLD } from "../core/paths/fold.js";

/**
 * How a repository compares names, from core.ignorecase and core.precomposeunicode as its config
 * file sets them (git sets both at `init` on a volume that needs them, macOS's by default): one
 * small file read, no git process. Exact without the file. `stateDir` is `<common dir>/tandem`.
 */
export function foldRuleOfState(stateDir: string): FoldRule {
  let text: string;
  try {
    text = readFileSync(join(dirname(stateDir), "config"), "utf8");
  } catch {
    return NO_FOLD;
  }
  const rule = { caseless: coreFlag(text, "ignorecase"), normalizes: coreFlag(text, "precomposeunicode") };
  return rule.caseless || rule.normalizes ? rule : NO_FOLD;
}
