#!/bin/sh
# Rebuilds corpus.json: every command the shell target tables hand to extractShellTargets,
# recorded while they run (record.setup.ts), each once, in the order first seen.
set -eu
cd "$(dirname "$0")/../.."
lines=$(mktemp)
TANDEM_SHELL_CORPUS="$lines" npx vitest run --config bench/shell-parsers/collect.config.ts \
  test/targets/shell test/targets/tool-targets.test.ts >/dev/null
node -e '
const fs = require("fs");
const seen = [...new Set(fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)))];
fs.writeFileSync("bench/shell-parsers/corpus.json", `${JSON.stringify(seen, null, 1)}\n`);
console.log(`${seen.length} commands`);
' "$lines"
rm -f "$lines"
