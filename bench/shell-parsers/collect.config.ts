/** The project's vitest config plus the recorder (see record.setup.ts). */
import { defineConfig, mergeConfig } from "vitest/config";
import base from "../../vitest.config.js";

export default mergeConfig(
  base,
  defineConfig({
    root: new URL("../..", import.meta.url).pathname,
    test: { setupFiles: ["bench/shell-parsers/record.setup.ts"] },
  }),
);
