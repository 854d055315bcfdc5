import { ownedMarkerLine } from "../owned-file.js";

/** Cline loads every module in the workspace's `.cline/plugins/` (docs/clients.md §14.6). */
export const PLUGIN_DIR = ".cline/plugins";
/** Not `tandem.js`: Cline 3.0.65 did not load a plugin file of that name (observed, cause unknown). */
export const PLUGIN_FILE = `${PLUGIN_DIR}/tandem-refusal.js`;

/**
 * Where a refusal rides in the input Tandem's PreToolUse hook file gives back: Cline's hook files
 * can only replace a call's input, so Tandem replaces it with this one key, which no tool accepts.
 */
export const REFUSAL_KEY = "tandem_refusal";

/**
 * The plugin's text. Cline runs its hook files first, then plugins' `beforeTool`; only a plugin can
 * end a call with `{skip: true, reason}`, which Cline shows the person as the call's error and gives
 * the model as its result. The plugin decides nothing: a call whose input is Tandem's refusal is
 * skipped with that reason. Without the plugin (not loaded, Cline's 4 s import bound passed) the
 * same input fails the tool's schema check, with the reason in the arguments shown (decision 0066).
 * Dependency-free and quick: Cline runs plugins in a sandbox process with a 3 s bound per hook.
 */
export function clinePluginText(launcher: string, cli: string): string {
  return `${ownedMarkerLine("//", `${launcher} hook cline ${cli}`)}
// Tandem's Cline plugin, written whole by \`tandem init\`, removed by \`tandem deinit\` (edits are
// lost on the next init; put your own plugins in other files). docs/clients.md §14.6.
const KEY = ${JSON.stringify(REFUSAL_KEY)};

export default {
  name: "tandem-refusal",
  manifest: { capabilities: ["hooks"] },
  hooks: {
    beforeTool(ctx) {
      const input = ctx && ctx.input;
      if (!input || typeof input !== "object" || typeof input[KEY] !== "string") return undefined;
      return { skip: true, reason: input[KEY] };
    },
  },
};
`;
}
