import { resolve } from "node:path";
import { git, gitStatus } from "../../git/run.js";
import { gitToFile, type StreamToFileResult } from "../../git/stream.js";

/**
 * `-c` overrides for every capture call. User config must not make an artifact
 * unapplyable, nondeterministic, or make capture write into the child's `.git`:
 * - prefixes, context, colour, blank-line and encoding settings shape the patch text;
 * - `core.fsmonitor` could start a daemon that writes into `.git`, and
 *   `core.splitIndex` would write shared index files there;
 * - `core.safecrlf` would make `add` abort on files the child never asked to stage;
 * - `add.ignoreErrors` would skip unreadable files silently instead of failing closed;
 * - `log.showSignature` would run gpg and mix its output into the mbox.
 */
export const CAPTURE_CONFIG: readonly string[] = [
  ["diff.noprefix", "false"],
  ["diff.mnemonicPrefix", "false"],
  ["diff.suppressBlankEmpty", "false"],
  ["diff.context", "3"],
  ["color.ui", "false"],
  ["color.diff", "false"],
  ["core.fsmonitor", "false"],
  ["core.splitIndex", "false"],
  ["core.safecrlf", "false"],
  ["add.ignoreErrors", "false"],
  ["log.showSignature", "false"],
  ["format.signOff", "false"],
  ["i18n.logOutputEncoding", "UTF-8"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
].flatMap(([key, value]) => ["-c", `${key}=${value}`]);

/**
 * Options shared by format-patch and the worktree diff. Renames are detected (`-M`,
 * fixed default threshold): a rename stays one small entry instead of a deletion
 * carrying the whole old file plus an addition, and `git apply --3way` can merge a
 * renamed-and-edited file into a target whose copy moved on; a delete+add pair
 * would refuse there. `--full-index` gives `--3way` full preimage ids.
 */
/** The diff shape every patch of a capture shares; patch-ids.ts diffs the same way. */
export const PATCH_SHAPE: readonly string[] = [
  "--binary",
  "--full-index",
  "-M",
  "--unified=3",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--src-prefix=a/",
  "--dst-prefix=b/",
  "--no-relative",
];

const DIFF_OPTIONS: readonly string[] = [...PATCH_SHAPE, "--ignore-submodules=none", "--submodule=short"];

/**
 * Format-patch options that defeat `format.*` config: no signature, sign-off,
 * numbering, threading (Message-Id would differ per run), cover letter, notes,
 * base info (useAutoBase fails without an upstream), MIME attachments, extra
 * headers or forced From. `--always` keeps empty commits so the mbox holds one
 * message per non-merge commit (apply needs `git am --empty=keep`).
 */
const FORMAT_PATCH_OPTIONS: readonly string[] = [
  "--stdout",
  "--no-signature",
  "--no-signoff",
  "--no-numbered",
  "--subject-prefix=PATCH",
  "--no-thread",
  "--no-cover-letter",
  "--no-notes",
  "--no-base",
  "--no-attach",
  "--no-to",
  "--no-cc",
  "--no-add-header",
  "--no-from",
  "--always",
];

/** Replace refs would make the patch describe objects other than the real ones. */
const BASE_ENV = { GIT_NO_REPLACE_OBJECTS: "1" };

export interface RepoInfo {
  top: string;
  /** This worktree's own git dir, where in-progress operations keep their state. */
  gitDir: string;
  objectsDir: string;
  indexFile: string;
  head: string;
}

/**
 * Finds the worktree root, its git dir, the real object store and index, and peels HEAD (fails
 * on a broken repo), all from one git process.
 */
export function locateRepo(worktree: string, base: string): RepoInfo {
  const out = git(
    worktree,
    [
      "rev-parse",
      "--show-toplevel",
      "--absolute-git-dir",
      "--git-path",
      "objects",
      "--git-path",
      "index",
      "HEAD^{commit}",
      `${base}^{commit}`,
    ],
    { env: BASE_ENV },
  );
  const lines = out.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (lines.length !== 6) throw new Error(`unexpected git rev-parse output (${lines.length} lines)`);
  const [top, gitDir, objects, index, head, peeledBase] = lines as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (peeledBase !== base) throw new Error(`base ${base} is not a commit id`);
  return { top, gitDir, objectsDir: resolve(worktree, objects), indexFile: resolve(worktree, index), head };
}

export interface CommitRange {
  /** Non-merge commits, i.e. messages in the mbox. */
  commitCount: number;
  merges: string[];
}

/** Counts BASE..HEAD, failing when BASE is not an ancestor (format-patch would silently pick the wrong set). */
export function inspectRange(top: string, base: string, head: string): CommitRange {
  const anc = gitStatus(top, ["merge-base", "--is-ancestor", base, head], { env: BASE_ENV });
  if (anc.status === 1) throw new Error(`base ${base} is not an ancestor of HEAD ${head}`);
  if (anc.status !== 0) {
    throw new Error(`git merge-base failed: ${anc.stderr.trim() || `exit ${anc.status}`}`);
  }
  const lines = git(top, ["rev-list", "--parents", `${base}..${head}`], { env: BASE_ENV })
    .split("\n")
    .filter((l) => l !== "");
  const merges = lines.filter((l) => l.split(" ").length > 2).map((l) => l.split(" ")[0]!);
  return { commitCount: lines.length - merges.length, merges };
}

export function streamFormatPatch(
  top: string,
  base: string,
  head: string,
  file: string,
  maxBytes: number,
): Promise<StreamToFileResult> {
  const args = [
    ...CAPTURE_CONFIG,
    "format-patch",
    ...FORMAT_PATCH_OPTIONS,
    ...DIFF_OPTIONS,
    `${base}..${head}`,
  ];
  return gitToFile(top, args, { env: BASE_ENV, file, maxBytes });
}

/** Alternates entries are colon-separated; git reads a double-quoted entry C-style. */
export function quoteAlternate(dir: string): string {
  if (!/[:"\\\n]/.test(dir)) return dir;
  return `"${dir.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/**
 * Environment for the snapshot: a private index and a private object directory
 * that reads the real store through alternates, so nothing the snapshot writes
 * lands in the child's `.git`. Pathspec variables are pinned so `:(exclude,literal)`
 * magic is honoured whatever the caller's environment says.
 */
export function snapshotEnv(
  indexFile: string,
  objectsDir: string,
  realObjects: string,
): Record<string, string> {
  return {
    ...BASE_ENV,
    GIT_INDEX_FILE: indexFile,
    GIT_OBJECT_DIRECTORY: objectsDir,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: quoteAlternate(realObjects),
    GIT_LITERAL_PATHSPECS: "0",
    GIT_GLOB_PATHSPECS: "0",
    GIT_NOGLOB_PATHSPECS: "0",
    GIT_ICASE_PATHSPECS: "0",
  };
}

/** `.` minus each excluded path, NUL-separated for `--pathspec-from-file` (no argv limits, any byte). */
export function addPathspecs(excluded: readonly string[]): string {
  return [".", ...excluded.map((p) => `:(exclude,literal)${p}`)].map((p) => `${p}\0`).join("");
}

export function streamWorktreeDiff(
  top: string,
  head: string,
  env: Record<string, string>,
  file: string,
  maxBytes: number,
  onChunk?: (chunk: Buffer) => void,
): Promise<StreamToFileResult> {
  const args = [...CAPTURE_CONFIG, "diff", "--cached", ...DIFF_OPTIONS, head, "--"];
  return gitToFile(top, args, { env, file, maxBytes, ...(onChunk ? { onChunk } : {}) });
}
