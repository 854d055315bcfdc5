import { createRequire } from "node:module";
import type { runCli } from "../../src/cli/full.js";
import type { handleHook } from "../../src/hooks/handler.js";

/**
 * The built bundles (dist/, made by the global setup), loaded by Node's own `require` for the
 * in-process world. Vitest evaluates every source module a test file imports, once per file: the
 * CLI's and the hook handler's few hundred modules cost a file 1-2 s of CPU, more than the process
 * starts they replace. Node loads one bundle in about a tenth of that, and what runs is what ships.
 */
const load = createRequire(import.meta.url);

/** dist/hook.cjs: the handler behind `tandem hook` and the resident server. */
export function hookBundle(): { handleHook: typeof handleHook } {
  return load("../../dist/hook.cjs");
}

/** dist/cli.cjs: the full CLI. */
export function cliBundle(): { runCli: typeof runCli } {
  return load("../../dist/cli.cjs");
}
