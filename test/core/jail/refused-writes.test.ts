import { expect, it } from "vitest";
import { refusedWrites } from "../../../src/core/jail/refused-writes.js";

const binds = [
  { path: "/r/peer.txt", reasons: ["agent-a's uncommitted file"] },
  { path: "/r/.git/tandem", reasons: ["Tandem's state"] },
  { path: "/w/peer tree", reasons: ["agent-c's worktree"] },
];

const cases: [string, string, string, string[], string?][] = [
  ["bash's redirect", "bash: peer.txt: Read-only file system", "/r", ["peer.txt"]],
  ["python's open", "OSError: [Errno 30] Read-only file system: 'peer.txt'", "/r", ["peer.txt"]],
  ["from a subdirectory", "bash: ../peer.txt: Read-only file system", "/r/src", ["../peer.txt"]],
  ["mv by rename", "mv: cannot move 't.tmp' to 'peer.txt': Read-only file system", "/r", ["peer.txt"]],
  ["rm", "rm: cannot remove '/r/peer.txt': Read-only file system", "/", ["/r/peer.txt"]],
  ["inside the state", "bash: .git/tandem/serve.tcp: Read-only file system", "/r", [".git/tandem/serve.tcp"]],
  [
    "a worktree's file, spaces and all",
    "printf: '/w/peer tree/x': Permission denied",
    "/r",
    ["/w/peer tree/x"],
  ],
  [
    "named twice, told once",
    "a: 'peer.txt': Read-only file system\nb: 'peer.txt': Read-only file system",
    "/r",
    ["peer.txt"],
  ],
  ["rm of a bind's mount point", "rm: cannot remove 'peer.txt': Device or resource busy", "/r", ["peer.txt"]],
  [
    "python's rename over it",
    "OSError: [Errno 16] Device or resource busy: '/tmp/x.tmp' -> 'peer.txt'",
    "/r",
    ["peer.txt"],
  ],
  ["git's unlink", "error: unable to unlink old 'peer.txt': Device or resource busy", "/r", ["peer.txt"]],
  ["git clean", "warning: failed to remove peer.txt: Device or resource busy", "/r", ["peer.txt"]],
  [
    "a hard link out of the bind",
    "ln: failed to create hard link 'h.txt' => 'peer.txt': Invalid cross-device link",
    "/r",
    ["peer.txt"],
  ],
  ["a busy file of its own", "rm: cannot remove 'mine.txt': Device or resource busy", "/r", []],
  ["its own file failing otherwise", "bash: mine.txt: Read-only file system", "/r", []],
  ["a peer's path without a refusal", "cat: peer.txt: No such file or directory", "/r", []],
  ["no output", "", "/r", []],
  // sed -i names only its temporary file; the command names the file it meant.
  [
    "sed -i's rename over it",
    "sed: cannot rename ./sedAb12Cd: Device or resource busy",
    "/r",
    ["peer.txt"],
    "sed -i 's/a/b/' peer.txt",
  ],
  [
    "sed -i in a read-only directory: the directory's own reason",
    "sed: couldn't open temporary file .git/tandem/sedXy34Zq: Read-only file system",
    "/r",
    [".git/tandem/sedXy34Zq"],
    "sed -i s/a/b/ .git/tandem/x",
  ],
  [
    "sed -i of its own file beside a peer's",
    "sed: cannot rename ./sedAb12Cd: Device or resource busy",
    "/r",
    [],
    "sed -i 's/a/b/' mine.txt peer.txt.bak",
  ],
  ["sed's temporary, no command", "sed: cannot rename ./sedAb12Cd: Device or resource busy", "/r", []],
  [
    "sed -i through a rewritten command, quoted",
    "sed: cannot rename /r/sedQQ12ab: Read-only file system",
    "/",
    ["r/peer.txt"],
    "bash -c 'cd /r && sed -i '\\''s/a/b/'\\'' peer.txt'",
  ],
];

it.each(cases)("the kernel's refusals in a command's output: %s", (_what, output, cwd, want, command) => {
  expect(refusedWrites(output, cwd, binds, command).map((r) => r.named)).toEqual(want);
});
