import { launcherWords } from "../../clients/launcher-words.js";
import type { Printer, Reader } from "../printed.js";
import { naturalCommand } from "./agent-command.js";

/**
 * What a person types to start this repository's Tandem, from the launcher `init` recorded: a
 * devDependency (`node_modules/.bin/tandem`, `npx tandem`) is `npx tandem`, a global install is
 * `tandem`, and a launcher pinned to this machine (an absolute path, `<node> <bundle>`) is itself.
 * Before any init, `tandem`.
 */
export function personLauncher(recorded: string | null, root: string): string {
  const text = recorded?.trim() ?? "";
  if (!text) return "tandem";
  const words = launcherWords(text);
  const first = words[0] ?? "";
  if (words[0] === "npx" && words[1] === "tandem") return "npx tandem";
  if (/^(\.\/)?node_modules\/\.bin\/tandem$/.test(first) && words.length === 1) return "npx tandem";
  return naturalCommand(text, root);
}

/** A printer for `reader`: agents get `agentLauncher`, people the recorded launcher's person form. */
export function printerFor(
  reader: Reader,
  facts: { agentLauncher: string; recorded: string | null; root: string },
): Printer {
  const launcher = reader === "agent" ? facts.agentLauncher : personLauncher(facts.recorded, facts.root);
  return { reader, launcher };
}
