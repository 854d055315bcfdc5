import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { build, stop } from "esbuild";

/** Builds in flight in this worker: esbuild's service stops once none is. */
let building = 0;

/**
 * Bundles a TypeScript test worker into `.cache/test-build/` — inside the
 * project, so the bundle resolves better-sqlite3 from our node_modules. esbuild's service process
 * is stopped after the last build: it would otherwise live as long as the worker, and the suite's
 * leftover check (test/helpers/leftovers.ts) rightly counts it as a process the file left running.
 */
export async function bundleForTest(entry: string): Promise<string> {
  const dir = join(process.cwd(), ".cache", "test-build");
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${basename(entry, ".ts")}-${process.pid}.mjs`);
  building++;
  try {
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      external: ["better-sqlite3"],
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
      logLevel: "warning",
    });
  } finally {
    if (--building === 0) await stop();
  }
  return outfile;
}
