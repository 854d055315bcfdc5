import { describe, expect, it } from "vitest";
import { NEEDED_BYTES, runTmpParent, type TmpFacts } from "../helpers/run-tmp.js";

const TMPFS = 0x01021994;
const EXT4 = 0xef53;

describe("where a run keeps its temporary files", () => {
  const cases: [string, TmpFacts, string | null][] = [
    [
      "a tmpfs /dev/shm with room",
      { override: undefined, shm: { type: TMPFS, freeBytes: NEEDED_BYTES } },
      "/dev/shm",
    ],
    [
      "a tmpfs /dev/shm too small (a container's 64 MB)",
      { override: undefined, shm: { type: TMPFS, freeBytes: 64 * 1024 ** 2 } },
      null,
    ],
    [
      "a /dev/shm that is no tmpfs",
      { override: undefined, shm: { type: EXT4, freeBytes: 10 * NEEDED_BYTES } },
      null,
    ],
    ["no /dev/shm", { override: undefined, shm: null }, null],
    [
      "the person's choice, over a good tmpfs",
      { override: "/tmp", shm: { type: TMPFS, freeBytes: 10 * NEEDED_BYTES } },
      "/tmp",
    ],
    [
      "an empty choice counts as none",
      { override: "", shm: { type: TMPFS, freeBytes: NEEDED_BYTES } },
      "/dev/shm",
    ],
  ];
  it.each(cases)("%s", (_, facts, parent) => {
    expect(runTmpParent(facts)).toBe(parent);
  });
});
