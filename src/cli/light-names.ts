/**
 * The commands agents run every turn (the ritual's `task` and `status`, claims, events). The
 * dispatcher sends them to the light CLI bundle, which holds only these; everything else (init,
 * doctor, sub-agents, watch, help) loads the full one. Kept apart so main.ts can read it without
 * loading either bundle.
 */
export { asksForHelp } from "../core/help-flag.js";

export const LIGHT_COMMANDS = ["status", "task", "claims", "release", "sessions", "events"] as const;

/** The command word of an argument list: the first word that is not a global option or its value. */
export function commandWord(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--root") i++;
    else if (!a.startsWith("-")) return a;
  }
  return null;
}

export function isLight(argv: readonly string[]): boolean {
  const word = commandWord(argv);
  return word !== null && (LIGHT_COMMANDS as readonly string[]).includes(word);
}
