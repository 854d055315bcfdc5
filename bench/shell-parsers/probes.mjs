// Newer or rarer bash syntax, parsed by `bash -n` and each candidate; prints the probes where they
// disagree (decision 0033). Needs bench/.candidates (setup.sh).
//   node bench/shell-parsers/probes.mjs
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { CANDIDATES } from "./candidates.mjs";

const PROBES = JSON.parse(readFileSync(new URL("./probes.json", import.meta.url), "utf8"));

const names = ["mvdan-sh", "go-wasm", "tree-sitter"];
const parsers = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await CANDIDATES[n]()])));
let disagreements = 0;
for (const probe of PROBES) {
  const bash = spawnSync("bash", ["-n", "-O", "extglob", "-c", probe]).status === 0 ? "ok" : "error";
  const row = [bash, ...names.map((n) => (parsers[n].parse(probe).error ? "error" : "ok"))];
  if (new Set(row).size > 1) {
    disagreements++;
    console.log(`${row.join("\t")}\t${JSON.stringify(probe)}`);
  }
}
console.log(`columns: bash -n, ${names.join(", ")}; ${disagreements} of ${PROBES.length} probes disagree`);
