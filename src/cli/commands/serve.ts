import { Command } from "commander";
import { UsageError } from "../../errors.js";
import type { Io } from "../context.js";

/**
 * `tandem serve` runs from its own bundle (src/main.ts hands it over before this CLI loads); this
 * entry only puts it in `tandem --help` beside the others.
 */
export function serveCommand(_io: Io): Command {
  return new Command("serve")
    .description(
      "Run the resident server that answers this repository's hooks (started on demand; see docs/server.md)",
    )
    .option("--status", "say whether a server runs for this repository, and its pid and socket")
    .option("--stop", "stop this repository's server")
    .addHelpText("after", "\nExamples:\n  tandem serve --status\n  tandem serve --stop\n")
    .action(() => {
      throw new UsageError("run `tandem serve` through the tandem binary, which starts the server bundle.");
    });
}
