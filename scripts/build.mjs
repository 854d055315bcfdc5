// Bundles Tandem into five CommonJS files (see docs/decisions/0002-bundling.md) and the thin client:
//   dist/tandem         the `tandem` command: a POSIX sh client of the resident server
//                       (docs/server.md) that runs dist/tandem.cjs when no server answers;
//   dist/tandem.cjs     the Node program: a dispatcher of a few KB;
//   dist/hook.cjs       everything `tandem hook` / `git-hook` need, nothing else;
//   dist/cli-light.cjs  the commands agents run every turn (status, task, claims…);
//   dist/cli.cjs        the whole command line (help, init, doctor, sub-agents, watch);
//   dist/server.cjs     `tandem serve`, the resident server;
//   dist/ui/            the browser board's page (`tandem ui`): app.js/.css load first, diff.js/.css
//                       (diff2html and highlight.js) only when a diff is shown.
// A hook process compiles the dispatcher and the hook bundle only. CommonJS
// because Node 20 loads it faster than ESM, and that cost is paid per hook.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
// One id per build, shared by the bundles and the thin client: a server answers its own build only.
// The id is a digest of what is built, so building unchanged sources again (a second test run in
// the same checkout, `npm run build` during one) changes nothing, and no running server of this
// build is told it is stale halfway through someone's run (issue 42).
const PLACEHOLDER = "@TANDEM_BUILD_ID@";

const BUNDLE_OF = {
  "./hooks/process.js": "./hook.cjs",
  "./cli/full.js": "./cli.cjs",
  "./cli/light.js": "./cli-light.cjs",
  "./server/main.js": "./server.cjs",
};

/** main.ts imports the bundles by their source paths; in dist they are sibling files. */
const splitHalves = {
  name: "split-halves",
  setup(b) {
    b.onResolve({ filter: /^\.\/(hooks\/process|cli\/full|cli\/light|server\/main)\.js$/ }, (args) => {
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
  define: { __TANDEM_VERSION__: JSON.stringify(pkg.version), __TANDEM_BUILD__: JSON.stringify(PLACEHOLDER) },
  legalComments: "none",
  logLevel: "warning",
  write: false,
};

const results = await Promise.all([
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
  build({ ...common, entryPoints: ["src/server/main.ts"], outfile: "dist/server.cjs" }),
  ...["app", "diff"].map((name) =>
    build({
      entryPoints: [`src/ui/page/${name === "app" ? "main" : "diff-entry"}.ts`],
      outfile: `dist/ui/${name}.js`,
      bundle: true,
      platform: "browser",
      format: "iife",
      target: ["chrome110", "firefox110", "safari16"],
      minify: true,
      legalComments: "none",
      logLevel: "warning",
      write: false,
    }),
  ),
]);
const outputs = results.flatMap((r) =>
  r.outputFiles.map((f) => ({ path: relative(".", f.path), text: f.text })),
);
outputs.push({
  path: "dist/tandem",
  text: readFileSync("src/thin/tandem.sh", "utf8").replace("@BUILD@", PLACEHOLDER),
});
const digest = createHash("sha256");
for (const o of outputs.sort((a, b) => (a.path < b.path ? -1 : 1))) digest.update(`${o.path}\0${o.text}\0`);
const buildId = `${pkg.version}+${digest.digest("hex").slice(0, 12)}`;

/** Writes `text` to `path` unless it is there already; atomically, so a reader never sees half. */
function writeIfChanged(path, text, mode) {
  let old = null;
  try {
    old = readFileSync(path, "utf8");
  } catch {
    // Not built yet.
  }
  if (old === text) return false;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
  return true;
}

const EXECUTABLE = new Set(["dist/tandem", "dist/tandem.cjs"]);
let changed = false;
for (const o of outputs) {
  const mode = EXECUTABLE.has(o.path) ? 0o755 : 0o644;
  if (writeIfChanged(o.path, o.text.split(PLACEHOLDER).join(buildId), mode)) changed = true;
}
// V8 would reject code caches of the previous bundles anyway; start clean.
if (changed)
  for (const f of readdirSync("dist")) if (f.endsWith(".v8cache")) rmSync(`dist/${f}`, { force: true });
