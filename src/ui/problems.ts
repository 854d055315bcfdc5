import type { EventFilter } from "../core/ui/event-filter.js";
import type { ProblemsReport } from "../core/ui/protocol.js";
import { doctorChecks } from "../doctor/checks.js";
import { DEFAULT_SINCE_MS } from "../doctor/hook-errors.js";
import type { Db } from "../store/db.js";
import type { UiContext } from "./context.js";
import { eventsPage, type Names } from "./read-events.js";

const HOOK_ERRORS: EventFilter = { session: null, kind: "hook.error" };

/**
 * The Problems view: what `tandem doctor` finds (problems and notes; its passing checks are left
 * out) and the newest recorded hook errors. Doctor runs git and reads files, so this is read when
 * the view asks, not on every store change.
 */
export async function problems(db: Db, ctx: UiContext, names: Names): Promise<ProblemsReport> {
  const now = Date.now();
  const { store, other } = await doctorChecks({
    root: ctx.root,
    repoTop: ctx.repoTop ?? null,
    stateDir: ctx.stateDir,
    loaded: ctx.loaded,
    env: ctx.env,
    now,
    since: now - DEFAULT_SINCE_MS,
  });
  const findings = [...store.findings, ...other].filter((f) => f.level !== "ok");
  const anchor = Number.MAX_SAFE_INTEGER;
  const page = eventsPage(db, { filter: HOOK_ERRORS, anchor, offset: 0, limit: 100 }, names, ctx.root);
  return { findings, hookErrors: page.rows };
}
