// Bundles Tandem into four CommonJS files (see docs/decisions/0002-bundling.md):
//   dist/tandem.cjs     the `tandem` binary: a dispatcher of a few KB;
//   dist/hook.cjs       everything `tandem hook` / `git-hook` need, nothing else;
//   dist/cli-light.cjs  the commands agents run every turn (status, task, claims…);
//   dist/cli.cjs        the whole command line (help, init, doctor, sub-agents, watch).
// A hook process compiles the dispatcher and the hook bundle only. CommonJS
// because Node 20 loads it faster than ESM, and that cost is paid per hook.
import { chmodSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

const BUNDLE_OF = {
  "./hooks/process.js": "./hook.cjs",
  "./cli/full.js": "./cli.cjs",
  "./cli/light.js": "./cli-light.cjs",
};

/** main.ts imports the bundles by their source paths; in dist they are sibling files. */
const splitHalves = {
  name: "split-halves",
  setup(b) {
    b.onResolve({ filter: /^\.\/(hooks\/process|cli\/full|cli\/light)\.js$/ }, (args) => {
      if (!args.importer.endsWith("main.ts")) return undefined;
      return { path: BUNDLE_OF[args.path], external: true };
    });
  },
};

const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // better-sqlite3's JavaScript is bundled (a hook would otherwise resolve and
  // compile its ten files on every call); its compiled addon is loaded by path
  // (src/store/db.ts), so `bindings`, its addon finder, is never reached.
  external: ["bindings", "mvdan-sh"],
  // jsonc-parser's UMD build requires its parts at run time; its ESM build bundles.
  mainFields: ["module", "main"],
  define: { __TANDEM_VERSION__: JSON.stringify(pkg.version) },
  legalComments: "none",
  logLevel: "warning",
};

await Promise.all([
  build({
    ...common,
    entryPoints: ["src/main.ts"],
    outfile: "dist/tandem.cjs",
    banner: { js: "#!/usr/bin/env node" },
    plugins: [splitHalves],
  }),
  build({ ...common, entryPoints: ["src/hooks/process.ts"], outfile: "dist/hook.cjs" }),
  build({ ...common, entryPoints: ["src/cli/full.ts"], outfile: "dist/cli.cjs" }),
  build({ ...common, entryPoints: ["src/cli/light.ts"], outfile: "dist/cli-light.cjs" }),
]);
chmodSync("dist/tandem.cjs", 0o755);
// V8 would reject code caches of the previous bundles anyway; start clean.
for (const f of readdirSync("dist")) if (f.endsWith(".v8cache")) rmSync(`dist/${f}`, { force: true });
