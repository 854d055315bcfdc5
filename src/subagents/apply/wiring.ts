import { isAbsolute, join, relative } from "node:path";
import { enclosingWorkTrees } from "../../config/git-discovery.js";
import { PROJECT_WIRING } from "../../config/project-wiring.js";
import { type WiringChange, type WiringFacts, wiringMatcher } from "../../core/guards/wiring.js";
import { errorMessage } from "../../errors.js";
import { gitHooksDir } from "../../wiring/snapshot.js";
import { artifactFor } from "../capture/artifact.js";
import type { SubCtx } from "../shared/ctx.js";
import type { CaptureRecord } from "../shared/records.js";

/**
 * The wiring of `top`, a checkout of the project's repository: the coordination root `root`
 * maps to the same place inside it, and git says where its hooks run from.
 */
function factsFor(top: string, root: string): WiringFacts {
  const rootTop = enclosingWorkTrees(root)[0]?.top ?? root;
  const rel = relative(rootTop, root);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  const tree = enclosingWorkTrees(top)[0];
  return {
    projectFiles: PROJECT_WIRING,
    tops: inside ? [top, join(top, rel)] : [top],
    commonDir: tree?.commonDir ?? null,
    hooksDir: gitHooksDir(top),
  };
}

/** Which of an artifact's repository paths are Tandem's wiring once applied into `top`. */
export function wiringChanges(paths: readonly string[], top: string, root: string): WiringChange[] {
  if (paths.length === 0) return [];
  const match = wiringMatcher(factsFor(top, root));
  const out: WiringChange[] = [];
  for (const path of [...new Set(paths)].sort()) {
    const hit = match(join(top, path));
    if (hit) out.push({ path, what: hit.what });
  }
  return out;
}

export interface CaptureWiring {
  changes: WiringChange[];
  /** Why the capture could not be checked (its blobs unreadable); show must not fail on it. */
  error: string | null;
}

/** The wiring a capture changes, as it would land in the project's own checkout (for `sub show`). */
export function captureWiring(ctx: SubCtx, capture: CaptureRecord | null): CaptureWiring {
  if (!capture) return { changes: [], error: null };
  try {
    const art = artifactFor(ctx, capture, null);
    const top = enclosingWorkTrees(ctx.root)[0]?.top ?? ctx.root;
    return { changes: wiringChanges([...art.seriesPaths, ...art.patchPaths], top, ctx.root), error: null };
  } catch (err) {
    return { changes: [], error: errorMessage(err) };
  }
}
