import { describe, expect, it } from "vitest";
import { freeingCommand } from "../../../src/core/guards/frees-space.js";

describe("commands that only free space (decision 0065)", () => {
  it.each<[string, string[] | null]>([
    ["rm big.bin", ["big.bin"]],
    ["rm -rf build dist", ["build", "dist"]],
    ["rm -f -- -odd.txt", ["-odd.txt"]],
    ["rmdir out && unlink cache.db", ["out", "cache.db"]],
    ["tandem gc", []],
    ["./tandem gc --older-than 7d", []],
    ["node_modules/.bin/tandem gc --dry-run; rm a.log", ["a.log"]],
    ["npx tandem gc", []],
    // Anything else could fill the space freed to judge it.
    ["tandem gc --vacuum", null],
    ["rm", null],
    ["rm -x a", null],
    ["rm $F", null],
    ["rm *.log", null],
    ["rm a && echo done", null],
    ["rm a | tee log", null],
    ["rm a > log", null],
    ["rm 'a b'", null],
    ["cp a b", null],
    ["tandem status", null],
    ["", null],
  ])("%j", (command, removes) => {
    expect(freeingCommand(command)?.removes ?? null).toEqual(removes);
  });
});
