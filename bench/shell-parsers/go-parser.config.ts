/**
 * The project's vitest config with the Go WebAssembly parser in place of mvdan-sh (decision 0033).
 * Name the files to run; they may be the shell target tables and the quick parser's differential
 * test, or the extractor timing (extractor.config.ts times it with mvdan-sh):
 *   npx vitest run --config bench/shell-parsers/go-parser.config.ts test/targets/shell
 *   PARSER_TIMING=out.json npx vitest run --config bench/shell-parsers/go-parser.config.ts extractor.timing
 */
import { defineConfig } from "vitest/config";
import base from "../../vitest.config.js";

export default defineConfig({
  ...base,
  root: new URL("../..", import.meta.url).pathname,
  test: {
    ...base.test,
    include: ["test/targets/**/*.test.ts", "bench/shell-parsers/extractor.timing.ts"],
    setupFiles: [...(base.test?.setupFiles ?? []), "bench/shell-parsers/go-parser.setup.ts"],
  },
});
