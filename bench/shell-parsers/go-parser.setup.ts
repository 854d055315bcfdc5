/** Vitest setup: the shell reader parses with the Go WebAssembly build instead of mvdan-sh (go-parser.config.ts). */
import { vi } from "vitest";
import { loadGoParser } from "./go-wasm/load-go.js";

vi.mock("../../src/targets/shell/load.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/targets/shell/load.js")>();
  const loaded = loadGoParser();
  return { ...original, loadParser: () => loaded };
});
