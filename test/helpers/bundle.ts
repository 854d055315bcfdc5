import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { build } from "esbuild";

/**
 * Bundles a TypeScript test worker into `.cache/test-build/` — inside the
 * project, so the bundle resolves better-sqlite3 from our node_modules.
 */
export async function bundleForTest(entry: string): Promise<string> {
  const dir = join(process.cwd(), ".cache", "test-build");
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${basename(entry, ".ts")}-${process.pid}.mjs`);
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
  return outfile;
}
