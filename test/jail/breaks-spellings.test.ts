/**
 * Issue 36, Done when, first bullet: the obvious spellings of writing a live peer's uncommitted
 * file from inside a session's kernel jail, one row each, run by real processes as a non-root user.
 * Each row targets its own file of peer A (whole-tree git commands target them all), and asserts:
 * 0 bytes lost (content, mode and mtime), the kernel's refusal in the output, and the actor told —
 * the post-tool hook's decision (`refusedWrites`, src/core/jail/refused-writes.ts) finds the
 * peer's path in what the command printed (the hook itself is run end to end in
 * breaks-jail.test.ts). The rows run in one jailed shell, each in its own subshell with its own
 * output files, so the table costs one jail. Never skipped.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { refusedWrites } from "../../src/core/jail/refused-writes.js";
import { jailedCommand } from "../../src/core/jail/rewrite.js";
import { patient } from "../helpers/patience.js";
import { digests, makeWorld, type World } from "./breaks-world.js";
import { asRoot, fileTempDirs, USER } from "./support.js";

interface Row {
  what: string;
  /** Shell text; `$F` is the row's peer file, `$T` a scratch path of the row outside the repository. */
  command: string;
  /** The row's peer files: its own `s-<slug>.txt`, or every peer file for a whole-tree command. */
  all?: true;
  /** Whether the output names the peer's path (else the agent reads only the kernel's own error). */
  told: boolean;
  /** A process the command leaves behind: the row waits for `$T.done` before it judges. */
  after?: true;
}

const ROWS: Record<string, Row> = {
  python: {
    what: "python open()",
    command: `python3 -c 'import sys; open(sys.argv[1], "w").write("lost")' "$F"`,
    told: true,
  },
  perl: {
    what: "perl",
    command: `perl -e 'open(F, ">", $ARGV[0]) or die "cannot write $ARGV[0]: $!\\n"; print F "lost"' "$F"`,
    told: true,
  },
  dd: { what: "dd", command: `printf lost | dd of="$F" status=none`, told: true },
  tee: { what: "tee", command: `printf lost | tee "$F"`, told: true },
  // sed writes a temporary file beside it and renames that over; its error names the temporary,
  // and the command's text names the file (an agent writes the name, not a variable).
  sed: { what: "sed -i", command: "sed -i 's/peer/lost/' s-sed.txt", told: true },
  cp: { what: "cp", command: `printf lost > "$T" && cp "$T" "$F"`, told: true },
  mv: { what: "mv over it", command: `printf lost > "$T" && mv -f "$T" "$F"`, told: true },
  rename: {
    what: "rename() into it",
    command: `printf lost > "$T" && python3 -c 'import os, sys; os.replace(sys.argv[2], sys.argv[1])' "$F" "$T"`,
    told: true,
  },
  truncate: { what: "truncate", command: `truncate -s 0 "$F"`, told: true },
  symlink: { what: "ln -sf over it", command: `ln -sf /etc/hostname "$F"`, told: true },
  hardlink: {
    what: "a hard link, then a write through it",
    command: `ln "$F" h-link.txt && printf lost > h-link.txt`,
    told: true,
  },
  chmod: { what: "chmod", command: `chmod 000 "$F"`, told: true },
  touch: { what: "touch -d", command: `touch -d 2001-01-01 "$F"`, told: true },
  rm: { what: "rm", command: `rm -f "$F"`, told: true },
  checkout: { what: "git checkout --", command: `git checkout -- "$F"`, told: true },
  restore: { what: "git restore", command: `git restore "$F"`, told: true },
  setsid: {
    what: "a setsid background loop",
    command: `setsid -f sh -c 'for i in 1 2 3 4 5; do printf lost > "$0"; sleep 0.05; done' "$F"; sleep 0.8`,
    told: true,
  },
  nohup: {
    what: "a nohup background loop",
    command: `nohup sh -c 'for i in 1 2 3 4 5; do printf lost > "$0"; sleep 0.05; done' "$F" & sleep 0.8`,
    told: true,
  },
  // Nobody reads the output of a process that outlives its command: the bytes are what counts.
  left: {
    what: "a process left behind after the command ends",
    command: `(sleep 1; printf lost > "$F"; echo $? > "$T.done") >/dev/null 2>&1 &`,
    told: false,
    after: true,
  },
  // Whole-tree commands last: they reach every peer file at once.
  stash: { what: "git stash -u", command: "git stash -u", all: true, told: true },
  clean: { what: "git clean -fdx", command: "git clean -fdx", all: true, told: true },
};

const SLUGS = Object.keys(ROWS);
const UNTRACKED = ["u-one.txt", "u-two.txt"];
const file = (slug: string) => `s-${slug}.txt`;
let w: World;
let out: string;
const dirs = fileTempDirs();

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + patient(20_000);
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const peerFiles = (slug: string): string[] =>
  ROWS[slug]!.all ? ["peer.txt", ...SLUGS.map(file), ...UNTRACKED] : [file(slug)];
let before: Record<string, string>;

beforeAll(() => {
  w = makeWorld({ peerTracked: SLUGS.map(file), peerUntracked: UNTRACKED });
  out = dirs.make("tandem-spellings-out-");
  if (asRoot) expect(spawnSync("chown", [USER, out]).status).toBe(0);
  chmodSync(out, 0o755);
  before = digests(["peer.txt", ...SLUGS.map(file), ...UNTRACKED].map((f) => join(w.repo, f)));
  // One shell: each row in a subshell of its own, its output in a file of its own.
  const script = SLUGS.map(
    (slug) =>
      `(\nF='${file(slug)}'; T='${join(out, slug)}.tmp'\n${ROWS[slug]!.command}\n) >'${join(out, slug)}.out' 2>&1\n`,
  ).join("");
  writeFileSync(join(out, "batch.sh"), script);
  const r = w.run(["bash", "-c", jailedCommand(w.launcher, w.plan, `bash '${join(out, "batch.sh")}'`)]);
  // 125: the jail was not set up and nothing ran; otherwise the last row's status, whatever it is.
  expect(r.status, `${r.stdout}${r.stderr}`).not.toBe(125);
  expect(r.error).toBeUndefined();
});

afterAll(() => {
  w?.close();
  dirs.removeAll();
});

const binds = () =>
  readFileSync(w.plan, "utf8")
    .split("\0")
    .filter(Boolean)
    .map((path) => ({ path, reasons: [] }));

it.each(SLUGS.map((s) => [ROWS[s]!.what, s]))(
  "%s of a peer's file, from inside the jail: 0 bytes lost, the actor told why",
  async (_what, slug) => {
    const row = ROWS[slug]!;
    const tmp = join(out, `${slug}.tmp`);
    if (row.after) await until(`${slug}'s process left behind`, () => existsSync(`${tmp}.done`));
    const targets = peerFiles(slug).map((f) => join(w.repo, f));
    const kept = Object.fromEntries(targets.map((t) => [t, before[t]]));
    expect(digests(targets)).toEqual(kept);
    const said = readFileSync(join(out, `${slug}.out`), "utf8");
    if (row.after) {
      expect(readFileSync(`${tmp}.done`, "utf8").trim()).not.toBe("0");
      return;
    }
    expect(said).toMatch(
      /Read-only file system|Permission denied|Operation not permitted|Device or resource busy|Invalid cross-device link/,
    );
    const hits = refusedWrites(said, w.repo, binds(), row.command).map((h) => h.bind.path);
    if (row.told)
      expect(
        targets.some((t) => hits.includes(t)),
        said,
      ).toBe(true);
    else
      expect(
        hits.filter((h) => targets.includes(h)),
        said,
      ).toEqual([]);
  },
);
