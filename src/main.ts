import { VERSION } from "./version.js";

type HookHalf = typeof import("./hooks/process.js");
type CliHalf = typeof import("./cli/program.js");

/**
 * Entry point. Hooks are on the agents' hot path, so `hook` and `git-hook`
 * load only the hook bundle: the CLI framework, help texts and sub-agent code
 * are never read for a hook. `require` (not `import()`) because a dynamic import
 * of a CommonJS file makes Node scan the whole file for exports first (~40 ms).
 */
async function main(argv: string[]): Promise<number> {
  const [first] = argv;
  if (first === "--version" || first === "-V") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === "hook" || first === "git-hook") {
    const { runHookProcess } = require("./hooks/process.js") as HookHalf;
    return runHookProcess(argv);
  }
  const { runCli } = require("./cli/program.js") as CliHalf;
  return runCli(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`tandem: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
