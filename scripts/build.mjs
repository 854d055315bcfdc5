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
import { createRequire } from "node:module";
import { dirname, relative, resolve } from "node:path";
import { build } from "esbuild";

/** Where the bundles go: dist/, or TANDEM_BUILD_OUT (a test builds a release copy elsewhere). */
const OUT = relative(".", resolve(process.env.TANDEM_BUILD_OUT || "dist"));
const SEAMS = process.env.TANDEM_TEST_SEAMS === "1";
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

/**
 * Test seams (src/testing/crash.ts: crash points, injected faults; src/testing/clock.ts: the hook
 * path's clock) are in the bundles only when
 * TANDEM_TEST_SEAMS=1 (the suite's global setup); a release build links the inert twin instead.
 */
const releaseSeams = {
  name: "release-seams",
  setup(b) {
    b.onResolve({ filter: /\/testing\/(crash|clock)\.js$/ }, (args) => ({
      path: resolve(`src/testing/${/(crash|clock)\.js$/.exec(args.path)[1]}-release.ts`),
    }));
  },
};

/**
 * string-width compiles Unicode property regexes when its module is evaluated (`\p{RGI_Emoji}` with
 * the `v` flag alone costs ~14 ms: ICU builds the emoji string set). In a CommonJS bundle an
 * imported module is evaluated when the bundle loads, so every command of the full CLI paid for it,
 * though only what draws text cells measures it. Here the import becomes a function that requires
 * the package on first call; esbuild bundles a `require`d ES module behind a lazy initializer.
 */
const lazyStringWidth = {
  name: "lazy-string-width",
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) =>
      args.namespace === "lazy-string-width"
        ? undefined
        : { path: "string-width", namespace: "lazy-string-width" },
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-string-width" }, () => ({
      contents:
        'let width; export default function stringWidth(text, options) { width ??= require("string-width").default; return width(text, options); }',
      resolveDir: process.cwd(),
      loader: "js",
    }));
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
  plugins: SEAMS ? [lazyStringWidth] : [lazyStringWidth, releaseSeams],
  write: false,
};

const results = await Promise.all([
  build({
    ...common,
    entryPoints: ["src/main.ts"],
    outfile: `${OUT}/tandem.cjs`,
    banner: { js: "#!/usr/bin/env node" },
    plugins: [...common.plugins, splitHalves],
  }),
  build({ ...common, entryPoints: ["src/hooks/process.ts"], outfile: `${OUT}/hook.cjs` }),
  build({ ...common, entryPoints: ["src/cli/full.ts"], outfile: `${OUT}/cli.cjs` }),
  build({ ...common, entryPoints: ["src/cli/light.ts"], outfile: `${OUT}/cli-light.cjs` }),
  build({ ...common, entryPoints: ["src/server/main.ts"], outfile: `${OUT}/server.cjs` }),
  ...["app", "diff"].map((name) =>
    build({
      entryPoints: [`src/ui/page/${name === "app" ? "main" : "diff-entry"}.ts`],
      outfile: `${OUT}/ui/${name}.js`,
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
/** The variables the thin client forwards, from the config table and the client registry. */
async function forwardedEnv() {
  const out = await build({
    entryPoints: ["src/config/forwarded-env.ts"],
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "warning",
  });
  const mod = { exports: {} };
  new Function("module", "exports", "require", out.outputFiles[0].text)(
    mod,
    mod.exports,
    createRequire(import.meta.url),
  );
  const names = mod.exports.forwardedEnv();
  if (!names.every((n) => /^[A-Z_][A-Z0-9_]*$/.test(n)))
    throw new Error(`not a variable name in ${names.join(" ")}`);
  return names;
}

const outputs = results.flatMap((r) =>
  r.outputFiles.map((f) => ({ path: relative(".", f.path), text: f.text })),
);
outputs.push({
  path: `${OUT}/tandem`,
  text: readFileSync("src/thin/tandem.sh", "utf8")
    .replace("@BUILD@", PLACEHOLDER)
    .replace("@FORWARDED@", (await forwardedEnv()).join(" ")),
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

const EXECUTABLE = new Set([`${OUT}/tandem`, `${OUT}/tandem.cjs`]);
let changed = false;
for (const o of outputs) {
  const mode = EXECUTABLE.has(o.path) ? 0o755 : 0o644;
  if (writeIfChanged(o.path, o.text.split(PLACEHOLDER).join(buildId), mode)) changed = true;
}
// V8 would reject code caches of the previous bundles anyway; start clean.
if (changed)
  for (const f of readdirSync(OUT)) if (f.endsWith(".v8cache")) rmSync(`${OUT}/${f}`, { force: true });
