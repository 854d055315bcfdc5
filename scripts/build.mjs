// Bundles the CLI into one ESM file. Dynamic imports stay lazy inside the bundle
// (esbuild wraps them as on-demand module initialisers), so a hook process parses
// one file but never evaluates the CLI framework.
import { chmodSync, readFileSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/tandem.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["better-sqlite3"],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __tandemCreateRequire } from 'node:module';\nconst require = __tandemCreateRequire(import.meta.url);",
  },
  define: { __TANDEM_VERSION__: JSON.stringify(pkg.version) },
  legalComments: "none",
  logLevel: "warning",
});
chmodSync("dist/tandem.js", 0o755);
