import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Loaded, loadWithCodeCache } from "./code-cache.js";
import { VERSION } from "./version.js";

type HookHalf = typeof import("./hooks/process.js");
type CliHalf = typeof import("./cli/program.js");

/**
 * Entry point. Hooks are on the agents' hot path, so `hook` and `git-hook`
 * load only the hook bundle: the CLI framework, help texts and sub-agent code
 * are never read for a hook. Not `import()`: a dynamic import of a CommonJS
 * file makes Node scan the whole file for exports first (~40 ms).
 */
async function main(argv: string[]): Promise<number> {
  const [first] = argv;
  if (first === "--version" || first === "-V") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === "hook" || first === "git-hook") {
    const half = load<HookHalf>("hook.cjs", () => require("./hooks/process.js"));
    return half.exports.runHookProcess(argv).finally(half.save);
  }
  const half = load<CliHalf>("cli.cjs", () => require("./cli/program.js"));
  return half.exports.runCli(argv).finally(half.save);
}

/** The bundle beside this one, through V8's code cache; plain `require` when not bundled. */
function load<T>(bundle: string, plain: () => unknown): Loaded<T> {
  if (typeof __dirname === "string" && existsSync(join(__dirname, bundle))) {
    return loadWithCodeCache<T>(join(__dirname, bundle));
  }
  return { exports: plain() as T, save: () => {} };
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
