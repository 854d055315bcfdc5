import { Command } from "commander";
import { runDemo } from "../../demo/run.js";
import type { Io } from "../context.js";

/** The bundle to run for each step: this very `tandem`, through its real entry points. */
function selfBin(): string {
  return require.main?.filename ?? process.argv[1] ?? "tandem";
}

export function demoCommand(io: Io): Command {
  return new Command("demo")
    .description(
      "Walk through Tandem in a temporary repository: claims, commits, the end-turn check, a sub-agent",
    )
    .option("--keep", "keep the temporary repository for inspection")
    .addHelpText("after", "\nExample:\n  tandem demo --keep\n")
    .action((opts: { keep?: boolean }) => {
      const ok = runDemo({ bin: selfBin(), keep: opts.keep === true, out: io.out });
      if (!ok) io.exitCode = 1;
    });
}
