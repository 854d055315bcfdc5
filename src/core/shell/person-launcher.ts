import type { Printer, Reader } from "../printed.js";
import { naturalCommand } from "./agent-command.js";

/**
 * What a person types to start this repository's Tandem, from the launcher `init` recorded: a
 * devDependency (`node_modules/.bin/tandem`, `npx tandem`) is `npx tandem`, a global install is
 * `tandem`, and a launcher pinned to this machine (an absolute path, `<node> <bundle>`) is itself.
 * Before any init, `tandem`. The caller splits the launcher into words (clients/launcher-words.ts),
 * so this room stays pure of the foundation.
 */
export function personLauncher(recorded: RecordedLauncher | null, root: string): string {
  const text = recorded?.text.trim() ?? "";
  if (!text || !recorded) return "tandem";
  const words = recorded.words;
  const first = words[0] ?? "";
  if (words[0] === "npx" && words[1] === "tandem") return "npx tandem";
  if (/^(\.\/)?node_modules\/\.bin\/tandem$/.test(first) && words.length === 1) return "npx tandem";
  return naturalCommand(text, root);
}

/** The launcher `init` recorded, as written and as argument words. */
export interface RecordedLauncher {
  text: string;
  words: readonly string[];
}

/** A printer for `reader`: agents get `agentLauncher`, people the recorded launcher's person form. */
export function printerFor(
  reader: Reader,
  facts: { agentLauncher: string; recorded: RecordedLauncher | null; root: string },
): Printer {
  const launcher = reader === "agent" ? facts.agentLauncher : personLauncher(facts.recorded, facts.root);
  return { reader, launcher };
}
