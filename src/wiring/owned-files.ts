import type { ClientName } from "../clients/index.js";
import { isOwnedHookFile } from "../clients/owned-file.js";
import type { ClientSpec } from "../clients/types.js";
import type { Mode } from "./client-file.js";
import type { FilePlan } from "./file-plan.js";
import type { FileState } from "./snapshot.js";

/**
 * The plans for a `files`-layout client's hook files (a plugin, hook scripts), which Tandem writes
 * whole: created or rewritten by init, deleted by deinit while they still carry Tandem's mark, and
 * never touched when a file of that name is someone else's. Pure, like every planner here.
 * `states` holds the files in the order `hookFiles` lists them; `launch` (the hooks' launcher and
 * the person's) is null for deinit.
 */
export function ownedFilePlans(
  client: ClientSpec<ClientName>,
  states: readonly FileState[],
  launch: { launcher: string; person: string } | null,
  mode: Mode,
): FilePlan[] {
  const wanted = launch === null ? [] : (client.hookFiles?.(launch.launcher, launch.person) ?? []);
  return states.map((state, i) => {
    const want = mode === "init" ? (wanted[i] ?? null) : null;
    const base = {
      path: state.path,
      kind: "settings" as const,
      client: client.name,
      executable: want?.executable ?? false,
    };
    const same: FilePlan = { ...base, action: "unchanged", after: state.text, changes: [], summary: "" };
    const ours = state.text !== null && isOwnedHookFile(state.text);
    if (state.text !== null && !ours) {
      if (want === null) return same;
      const reason = `${state.path}: not written by Tandem; move it aside (Tandem writes ${client.label}'s hook there), then re-run`;
      return { ...base, action: "refuse", after: null, changes: [], summary: "", reason };
    }
    if (want === null) {
      if (state.text === null) return same;
      return {
        ...base,
        action: "delete",
        after: null,
        changes: ["Tandem hook file"],
        summary: "held only Tandem's hook",
      };
    }
    if (state.text === null)
      return {
        ...base,
        action: "create",
        after: want.text,
        changes: ["missing"],
        summary: "Tandem's hook file",
      };
    if (state.text !== want.text)
      return {
        ...base,
        action: "update",
        after: want.text,
        changes: ["Tandem's hook file differs"],
        summary: "rewrote Tandem's hook file",
      };
    if (want.executable && !state.executable)
      return {
        ...base,
        action: "update",
        after: want.text,
        changes: ["not executable"],
        summary: "made it executable",
      };
    return same;
  });
}
