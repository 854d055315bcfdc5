/**
 * Runs extractor.timing.ts alone with the project's parser (mvdan-sh):
 *   PARSER_TIMING=out.json npx vitest run --config bench/shell-parsers/extractor.config.ts
 */
import { defineConfig } from "vitest/config";
import base from "../../vitest.config.js";

export default defineConfig({
  ...base,
  root: new URL("../..", import.meta.url).pathname,
  test: { ...base.test, include: ["bench/shell-parsers/extractor.timing.ts"] },
});
