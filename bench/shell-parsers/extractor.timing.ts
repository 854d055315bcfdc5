/**
 * The shell reader's cost per command in a warm process, the server's case (decision 0033):
 * extractShellTargets over corpus.json with the quick parser off, so every command is parsed by
 * the full parser and walked. Median of 7 passes per command, then median / p95 / max and the sum
 * across commands, written as JSON to $PARSER_TIMING. Run through extractor.config.ts (mvdan-sh)
 * or go-parser.config.ts (the Go WebAssembly build).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { expect, it } from "vitest";
import { extractShellTargets } from "../../src/targets/shell.js";

const PASSES = 7;

it("times the shell reader over the table commands", async () => {
  const corpus = JSON.parse(readFileSync(new URL("./corpus.json", import.meta.url), "utf8")) as string[];
  const options = { home: "/home/user", quick: false };
  for (const command of corpus) await extractShellTargets(command, options); // load and warm up
  const times = corpus.map(() => [] as number[]);
  for (let pass = 0; pass < PASSES; pass++) {
    for (const [i, command] of corpus.entries()) {
      const start = performance.now();
      await extractShellTargets(command, options);
      times[i]!.push(performance.now() - start);
    }
  }
  const perCommand = times.map((t) => t.sort((a, b) => a - b)[Math.floor(PASSES / 2)]!).sort((a, b) => a - b);
  const at = (q: number) => perCommand[Math.min(perCommand.length - 1, Math.floor(q * perCommand.length))]!;
  const sum = perCommand.reduce((a, b) => a + b, 0);
  const result = { commands: corpus.length, median: at(0.5), p95: at(0.95), max: at(1), sum };
  expect(result.commands).toBeGreaterThan(0);
  if (process.env.PARSER_TIMING) writeFileSync(process.env.PARSER_TIMING, JSON.stringify(result));
  else console.log(result);
});
