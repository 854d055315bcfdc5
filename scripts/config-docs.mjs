// Writes the table of config keys (src/config/keys.ts) into the docs between their markers:
// `npm run docs:config`. test/config/docs-table.test.ts fails when the committed docs differ.
import { readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

const root = new URL("../", import.meta.url);
const bundled = await build({
  entryPoints: [new URL("src/config/docs-table.ts", root).pathname],
  bundle: true,
  platform: "node",
  format: "esm",
  mainFields: ["module", "main"],
  write: false,
  logLevel: "warning",
});
const code = Buffer.from(bundled.outputFiles[0].contents).toString("base64");
const { CONFIG_DOCS, configDocsTable, withTable } = await import(`data:text/javascript;base64,${code}`);

const table = configDocsTable();
for (const file of CONFIG_DOCS) {
  const url = new URL(file, root);
  const before = readFileSync(url, "utf8");
  const after = withTable(before, table);
  if (after === null) {
    console.error(`${file}: the config-keys markers are missing; put them where the table belongs.`);
    process.exitCode = 1;
  } else if (after !== before) {
    writeFileSync(url, after);
    console.log(`${file}: config table updated`);
  }
}
