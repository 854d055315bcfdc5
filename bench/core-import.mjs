// Loads modules of src/ straight from TypeScript for a bench script (no build of dist/ needed):
// esbuild bundles the named exports in memory and Node imports the bundle as a data: URL.
import { build } from "esbuild";

/** `entry` is module text such as `export { diffLines } from "./src/core/lines/diff.ts";`. */
export async function importSource(entry) {
  const out = await build({
    stdin: { contents: entry, resolveDir: new URL("..", import.meta.url).pathname, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
}
