import { VERSION } from "./version.js";

/**
 * Entry point. Hooks are on the agents' hot path, so `hook` and `git-hook`
 * dispatch before anything else is loaded: the CLI framework, help texts and
 * sub-agent code are never evaluated for a hook.
 */
async function main(argv: string[]): Promise<number> {
  const [first] = argv;
  if (first === "--version" || first === "-V") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === "hook" || first === "git-hook") {
    const { runHookProcess } = await import("./hooks/process.js");
    return runHookProcess(argv);
  }
  const { runCli } = await import("./cli/program.js");
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
