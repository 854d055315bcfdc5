import { readFileSync } from "node:fs";
import { join } from "node:path";
import { coreFlag } from "../core/git/hooks-path.js";
import { type FoldRule, NO_FOLD } from "../core/paths/fold.js";
import type { HookCtx } from "./context.js";

/**
 * How the hook's repository compares names, from core.ignorecase and core.precomposeunicode as
 * its config file sets them (git sets both at `init` on a volume that needs them, macOS's by
 * default): one small file read, no git process. Exact outside a repository or without the file.
 */
export function hookFoldRule(ctx: Pick<HookCtx, "root">): FoldRule {
  const repo = ctx.root.repo;
  if (!repo) return NO_FOLD;
  let text: string;
  try {
    text = readFileSync(join(repo.commonDir, "config"), "utf8");
  } catch {
    return NO_FOLD;
  }
  const rule = { caseless: coreFlag(text, "ignorecase"), normalizes: coreFlag(text, "precomposeunicode") };
  return rule.caseless || rule.normalizes ? rule : NO_FOLD;
}
