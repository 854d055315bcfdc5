// Bundles the CLI into one CommonJS file. Dynamic imports stay lazy inside the
// bundle (esbuild wraps them as on-demand module initialisers), so a hook process
// parses one file but never evaluates the CLI framework. CommonJS rather than ESM
// because Node 20 loads one CJS file ~15 ms faster than one ESM file, and that
// start-up cost is paid by every hook (see docs/decisions/0002-bundling.md).
import { chmodSync, readFileSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/tandem.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["better-sqlite3"],
  // jsonc-parser's UMD build requires its parts at run time; its ESM build bundles.
  mainFields: ["module", "main"],
  banner: { js: "#!/usr/bin/env node" },
  define: { __TANDEM_VERSION__: JSON.stringify(pkg.version) },
  legalComments: "none",
  logLevel: "warning",
});
chmodSync("dist/tandem.cjs", 0o755);
