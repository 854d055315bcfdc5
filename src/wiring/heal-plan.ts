import type { InitRecord } from "./init-record.js";
import { type FilePlan, planInit } from "./plan.js";
import type { FileState, Snapshot } from "./snapshot.js";

/**
 * What healing the wiring writes (docs/decisions/0024), as data. Pure: the snapshot holds the files
 * as found, `lastGood` the content Tandem last wrote or accepted for each. The same planner as
 * `tandem init` decides, so a file the person edited keeps their edits and only Tandem's entries
 * are put back; a file removed, or one init cannot read, gets its last accepted content back.
 */

export interface HealStep {
  path: string;
  /** What to write; null when the file cannot be healed (see `unhealable`). */
  text: string | null;
  executable: boolean;
  /** One line per thing that was missing or altered. */
  changes: string[];
  /** The bytes found where the last accepted content is put back (kept before overwriting). */
  displaced: string | null;
  /** Why nothing is written: init refuses the file and no earlier content is known. */
  unhealable?: string;
}

/** Every file of a snapshot: what init and the healer look at. */
export function statesOf(s: Snapshot): FileState[] {
  return [
    ...Object.values(s.settings),
    ...Object.values(s.moreHookFiles ?? {}).flat(),
    ...(s.claudeLocal ? [s.claudeLocal] : []),
    ...(s.codexRules ? [s.codexRules] : []),
    ...(s.codexLocal ? [s.codexLocal] : []),
    ...(s.geminiPolicy ? [s.geminiPolicy] : []),
    ...Object.values(s.switches ?? {}),
    ...Object.values(s.switchFiles ?? {}).flat(),
    s.config,
    ...(s.gitHooks ? Object.values(s.gitHooks.files) : []),
  ];
}

/** The snapshot with some files' texts replaced (by path). */
export function withTexts(s: Snapshot, texts: ReadonlyMap<string, string>): Snapshot {
  const swap = (f: FileState): FileState => (texts.has(f.path) ? { ...f, text: texts.get(f.path)! } : f);
  const settings = Object.fromEntries(Object.entries(s.settings).map(([n, f]) => [n, swap(f)]));
  const moreHookFiles = Object.fromEntries(
    Object.entries(s.moreHookFiles ?? {}).map(([n, files]) => [n, files.map(swap)]),
  );
  const switches = Object.fromEntries(Object.entries(s.switches ?? {}).map(([n, f]) => [n, swap(f)]));
  const switchFiles = Object.fromEntries(
    Object.entries(s.switchFiles ?? {}).map(([n, files]) => [n, files.map(swap)]),
  );
  const hooks = s.gitHooks;
  return {
    ...s,
    settings,
    moreHookFiles,
    switches,
    switchFiles,
    ...(s.claudeLocal ? { claudeLocal: swap(s.claudeLocal) } : {}),
    ...(s.codexRules ? { codexRules: swap(s.codexRules) } : {}),
    ...(s.codexLocal ? { codexLocal: swap(s.codexLocal) } : {}),
    ...(s.geminiPolicy ? { geminiPolicy: swap(s.geminiPolicy) } : {}),
    config: swap(s.config),
    gitHooks: hooks
      ? {
          dir: hooks.dir,
          files: Object.fromEntries(
            Object.entries(hooks.files).map(([n, f]) => [n, swap(f)]),
          ) as typeof hooks.files,
        }
      : null,
  };
}

/**
 * Files to put back whole: removed, or unreadable to init, with an earlier content known. A
 * client's hook switch never is: its plan writes nothing unless the text switches hooks off.
 */
function brokenFiles(
  s: Snapshot,
  plans: readonly FilePlan[],
  lastGood: (path: string) => string | null,
  reverted: ReadonlyMap<string, string>,
): Map<string, string> {
  const refused = new Set(plans.filter((p) => p.action === "refuse").map((p) => p.path));
  const out = new Map<string, string>();
  for (const f of statesOf(s)) {
    const good = lastGood(f.path);
    const whole = f.text === null || refused.has(f.path) || reverted.has(f.path);
    if (good !== null && whole) out.set(f.path, good);
  }
  return out;
}

function whyBroken(
  state: FileState,
  plan: FilePlan | undefined,
  reverted: ReadonlyMap<string, string>,
): string {
  const why = reverted.get(state.path);
  if (why !== undefined) return why;
  if (state.text === null) return "the file was removed; put back the last content Tandem recorded";
  return `${plan?.reason ?? "unreadable"}; put back the last content Tandem recorded`;
}

/**
 * The writes that put Tandem's entries back; an empty list when nothing of Tandem's is missing.
 * `reverted`: files an agent's tool call changed whose every byte is put back (the project config,
 * decision 0070), each with the line that says why.
 */
export function healPlan(
  s: Snapshot,
  launcher: string,
  record: InitRecord,
  lastGood: (path: string) => string | null,
  agent?: string,
  reverted: ReadonlyMap<string, string> = new Map(),
): HealStep[] {
  const first = planInit(s, launcher, record, agent);
  const broken = brokenFiles(s, first, lastGood, reverted);
  const plans = broken.size === 0 ? first : planInit(withTexts(s, broken), launcher, record, agent);
  const firstByPath = new Map(first.map((p) => [p.path, p]));
  const stateByPath = new Map(statesOf(s).map((f) => [f.path, f]));
  const steps: HealStep[] = [];
  for (const p of plans) {
    const disk = stateByPath.get(p.path);
    if (!disk) continue;
    if (p.action === "refuse") {
      const reason = p.reason ?? "init refuses this file";
      steps.push({
        path: p.path,
        text: null,
        executable: false,
        changes: [],
        displaced: null,
        unhealable: reason,
      });
      continue;
    }
    const want = p.after;
    const needsMode = p.kind === "git-hook" && !disk.executable;
    if (want === null || (want === disk.text && !needsMode)) continue;
    const put = broken.has(p.path);
    steps.push({
      path: p.path,
      text: want,
      executable: p.executable,
      changes: put ? [whyBroken(disk, firstByPath.get(p.path), reverted), ...p.changes] : p.changes,
      displaced: put ? disk.text : null,
    });
  }
  return steps;
}

/** How many restorations in a row may find the very same bytes before the healer stops fighting. */
export const FIGHT_LIMIT = 3;

/**
 * Whether another writer keeps putting the same content back (another Tandem with its own idea of
 * the file, a sync tool): the last `FIGHT_LIMIT` restorations each found exactly `found`. Then a
 * heal would only start a rewrite loop (issue 42), so the file is left for a person to settle.
 */
export function contested(found: string | null, lastFound: readonly (string | null)[]): boolean {
  return (
    found !== null &&
    lastFound.length >= FIGHT_LIMIT &&
    lastFound.slice(0, FIGHT_LIMIT).every((f) => f === found)
  );
}

/** Recorded files whose stat stamp is no longer the one recorded. */
export function staleFiles<T extends { path: string; stamp: string }>(
  rows: readonly T[],
  stampOf: (path: string) => string,
): T[] {
  return rows.filter((r) => stampOf(r.path) !== r.stamp);
}
