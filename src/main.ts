import { existsSync } from "node:fs";
import { join } from "node:path";
import { asksForHelp, isLight } from "./cli/light-names.js";
import { type Loaded, loadWithCodeCache } from "./code-cache.js";
import { VERSION } from "./version.js";

/** The CLI's exit code for a usage error (docs/product.md §11). */
const USAGE_EXIT = 2;

type HookHalf = typeof import("./hooks/process.js");
type CliHalf = typeof import("./cli/full.js");
type ServerHalf = typeof import("./server/main.js");

/**
 * Entry point. Hooks are on the agents' hot path, so `hook` and `git-hook`
 * load only the hook bundle: the CLI framework, help texts and sub-agent code
 * are never read for a hook. The commands agents run every turn load the light
 * CLI bundle; everything else the full one. Not `import()`: a dynamic import of a CommonJS
 * file makes Node scan the whole file for exports first (~40 ms).
 */
async function main(argv: string[]): Promise<number> {
  const [first] = argv;
  if (first === "--version" || first === "-V") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === "hook" || first === "git-hook") {
    const words = first === "hook" ? 3 : 2;
    const half = load<HookHalf>("hook.cjs", cacheKey(argv, words), () => require("./hooks/process.js"));
    return half.exports.runHookProcess(argv).finally(half.save);
  }
  if (first === "serve") {
    const half = load<ServerHalf>("server.cjs", "serve", () => require("./server/main.js"));
    half.save(); // the server runs for minutes: its cache is written at start, not at exit
    const write = (stream: NodeJS.WriteStream) => (t: string) => void stream.write(t);
    return half.exports.runServe(argv.slice(1), write(process.stdout), write(process.stderr));
  }
  const key = cacheKey(argv, first === "sub" ? 2 : 1);
  const half = isLight(argv)
    ? load<CliHalf>("cli-light.cjs", key, () => require("./cli/light.js"))
    : load<CliHalf>("cli.cjs", key, () => require("./cli/full.js"));
  const code = await half.exports.runCli(argv);
  // A usage error (an unknown or mistyped command word) compiled next to nothing worth keeping,
  // and would leave a cache file named after the typo in the install.
  if (code !== USAGE_EXIT) half.save();
  // Help starts nothing: a server started for it would sit idle for half an hour.
  if (isLight(argv) && !asksForHelp(argv)) half.exports.startServerOnDemand(process.env, process.cwd());
  return code;
}

/** Names the code cache after the command (`status`, `sub-apply`, `hook-pre-tool-use`). */
function cacheKey(argv: readonly string[], words: number): string {
  const picked = argv.filter((a) => !a.startsWith("-")).slice(0, words);
  if (picked[0] === "hook") picked.splice(1, 1); // every client's hook runs the same code
  const key = picked.join("-");
  return /^[a-z][a-z-]{0,40}$/.test(key) ? key : "other";
}

/** The bundle beside this one, through V8's code cache; plain `require` when not bundled. */
function load<T>(bundle: string, key: string, plain: () => unknown): Loaded<T> {
  if (typeof __dirname === "string" && existsSync(join(__dirname, bundle))) {
    return loadWithCodeCache<T>(join(__dirname, bundle), key);
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
