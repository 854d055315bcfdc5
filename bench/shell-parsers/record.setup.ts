/**
 * Vitest setup for bench/shell-parsers/collect.mjs: records every command the shell test tables
 * hand to extractShellTargets (one JSON line each), so the parser bench measures real cases.
 */
import { appendFileSync } from "node:fs";
import { vi } from "vitest";

const out = process.env.TANDEM_SHELL_CORPUS;

vi.mock("../../src/targets/shell/index.js", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../../src/targets/shell/index.js")>();
  return {
    ...mod,
    extractShellTargets: (command: string, options?: Parameters<typeof mod.extractShellTargets>[1]) => {
      if (out) appendFileSync(out, `${JSON.stringify(command)}\n`);
      return mod.extractShellTargets(command, options);
    },
  };
});
