import { expect, it } from "vitest";
import { type SeatbeltPath, seatbeltProfile, seatbeltString } from "../../../src/core/jail/seatbelt.js";

const HEAD = [
  ";; Tandem's seatbelt profile, generated from the jail's plan (issue 36; docs/safety-net.md).",
  ";; Peers' files and worktrees move with the claims: the reader guards those on macOS.",
  "(version 1)",
  "(allow default)",
].join("\n");

const state: SeatbeltPath = { path: "/r/.git/tandem", dir: true, reasons: ["Tandem's state"] };
const config: SeatbeltPath = { path: "/r/.git/config", dir: false, reasons: ["git's config"] };
const peer: SeatbeltPath = { path: "/r/a.txt", dir: false, reasons: ["agent-a's uncommitted file"] };
const tree: SeatbeltPath = { path: "/w/peer", dir: true, reasons: ["agent-c's worktree"] };

const cases: [string, SeatbeltPath[], string][] = [
  [
    "what does not move is denied, a directory by subpath and a file by literal",
    [state, config],
    `${HEAD}\n(deny file-write*\n  ;; Tandem's state\n  (subpath "/r/.git/tandem")\n  ;; git's config\n  (literal "/r/.git/config"))\n`,
  ],
  [
    "peers' files and worktrees are left to the reader",
    [peer, state, tree],
    `${HEAD}\n(deny file-write*\n  ;; Tandem's state\n  (subpath "/r/.git/tandem"))\n`,
  ],
  ["nothing fixed: no deny at all", [peer, tree], `${HEAD}\n`],
  [
    "a wiring file a peer also holds stays, told by its own reason",
    [
      {
        path: "/r/.tandem/config.jsonc",
        dir: false,
        reasons: ["agent-a's uncommitted file", "Tandem's config"],
      },
    ],
    `${HEAD}\n(deny file-write*\n  ;; Tandem's config\n  (literal "/r/.tandem/config.jsonc"))\n`,
  ],
  [
    "an odd name is quoted, and a reason cannot end its comment line",
    [{ path: '/r/a "b"\\c\nd', dir: false, reasons: ["two\nlines"] }],
    `${HEAD}\n(deny file-write*\n  ;; two lines\n  (literal "/r/a \\"b\\"\\\\c\\nd"))\n`,
  ],
];

it.each(cases)("the seatbelt profile: %s", (_what, paths, want) => {
  expect(seatbeltProfile(paths)).toBe(want);
});

it.each([
  ["/plain/path", '"/plain/path"'],
  ['/a"b', '"/a\\"b"'],
  ["/a\\b", '"/a\\\\b"'],
])("%s as a seatbelt string", (path, want) => {
  expect(seatbeltString(path)).toBe(want);
});
