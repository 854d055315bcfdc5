import { CLIENT_NAMES, type ClientName } from "../clients/index.js";
import {
  anyText,
  commandOrNull,
  count,
  finalizationRoots,
  flag,
  type KeyType,
  launches,
  listOf,
  oneOf,
  text,
  textList,
  textOrNull,
  textOrNullFromEnv,
} from "./key-types.js";
import { STORE_LOCK_SECONDS } from "./store-lock.js";

/**
 * Every key of `.tandem/config.jsonc` and the user config, declared once. The schema and its
 * messages (schema.ts), the defaults and the `Config` type, the TANDEM_* overrides (env.ts), the
 * merge of the layers (load.ts), the template `init` writes (template.ts) and the docs table
 * (docs-table.ts, `npm run docs:config`) are all read from this list. Order is the order of the
 * file, the template and the docs.
 */

interface Described {
  /** The docs table's meaning column. */
  doc: string;
  /** The docs table's default column, when the default is not a value to show. */
  docDefault?: string;
  /** The template's comment above the key; absent: the key is not in the template. */
  comment?: string;
  /** The TANDEM_* variable that overrides the key for one process. */
  env?: string;
  /** Read from the project file only; a user-file value is dropped, and this says why. */
  projectOnly?: string;
}

export interface KeyDef<K extends string = string, T = unknown, F extends string | null = string | null>
  extends Described {
  /** The dotted path in the file. */
  key: K;
  /** The setting of `Config` the key fills; null for keys read by their own users. */
  field: F;
  type: KeyType<T>;
  default: T;
  /** The value the template shows, when the default cannot be written (a computed path). */
  example?: T;
}

/** A key that fills a setting of `Config`. */
function setting<K extends string, F extends string, T>(
  d: Described & { key: K; field: F; type: KeyType<T>; default: NoInfer<T>; example?: NoInfer<T> },
): KeyDef<K, T, F> {
  return d;
}

/** A key read where it is used (init's record, an editor's `$schema`): no setting, no default. */
function recorded<K extends string, T>(
  d: Described & { key: K; type: KeyType<T>; docDefault: string },
): KeyDef<K, T | undefined, null> {
  return { ...d, type: d.type as KeyType<T | undefined>, field: null, default: undefined };
}

const CLIENTS = CLIENT_NAMES;
/** Sub-agents may also be launched through a wrapper of the user's (`exec`). */
const LAUNCHERS = [...CLIENTS, "exec"] as [ClientName | "exec", ...(ClientName | "exec")[]];

export const CONFIG_KEYS = [
  recorded({
    key: "$schema",
    type: anyText("a string (the URL of a JSON schema)"),
    docDefault: "none",
    doc: "the URL of a JSON schema, for editors; Tandem does not read it.",
  }),
  recorded({
    key: "init.command",
    type: text('a command ending in tandem, e.g. "tandem" or "node_modules/.bin/tandem"'),
    docDefault: "written by `tandem init`",
    doc: "the command the hooks call (`tandem` or `node_modules/.bin/tandem`); `init --check`, `doctor` and a re-run of `init` keep it.",
  }),
  recorded({
    key: "init.clients",
    type: listOf(CLIENTS),
    docDefault: "written by `tandem init`",
    doc: `the clients \`init\` wired: any of ${CLIENTS.map((c) => `\`${c}\``).join(", ")}.`,
  }),
  recorded({
    key: "init.gitHooks",
    type: flag(),
    docDefault: "written by `tandem init`",
    doc: "whether `init` installed the git hooks (pre-commit and the others).",
  }),
  setting({
    key: "guard",
    field: "guard",
    type: oneOf(["reader", "kernel"]),
    default: "reader",
    env: "TANDEM_GUARD",
    comment:
      'What guards agents\' shell commands: "reader" (the hooks read each command) or "kernel" (Claude Code\'s commands also run in the kernel jail, docs/decisions/0056; a jail that cannot be set up refuses the command).',
    doc: "`reader`: the hooks read each shell command and refuse what they recognise; `kernel`: a client whose hook can rewrite a command (Claude Code) also runs it in the kernel jail, where live peers' uncommitted files, Tandem's state and the wiring are read-only (`docs/decisions/0056-hook-jail.md`); a jail that cannot be set up refuses the command. Other clients: `tandem run <client>`.",
  }),
  setting({
    key: "agents.stopRitual",
    field: "stopRitual",
    type: oneOf(["enforce", "observe", "off"]),
    default: "enforce",
    env: "TANDEM_STOP_RITUAL",
    comment:
      'Whether Stop hooks may block the end of a turn: "enforce", "observe" or "off" (Codex never blocks).',
    doc: "`enforce`, `observe` or `off`: whether Stop hooks may block the end of a turn (never on Codex).",
  }),
  setting({
    key: "agents.requireGitFinalization",
    field: "requireGitFinalization",
    type: flag(),
    default: false,
    env: "TANDEM_REQUIRE_GIT_FINALIZATION",
    comment: "The ritual requires `tandem status --end-turn` evidence.",
    doc: "the ritual requires `tandem status --end-turn`; writes outside the authorized roots are refused.",
  }),
  setting({
    key: "agents.finalizationRoots",
    field: "finalizationRoots",
    type: finalizationRoots(),
    default: [],
    projectOnly: "grant filesystem authority",
    comment:
      'Extra roots checked at end of turn, relative to this root: [{ "path": "out", "disposition": "output" }] ("git" = a repository whose work must be committed, "output" = generated files).',
    doc: 'extra roots `{ "path": "../docs-site", "disposition": "git" | "output" }`, relative to the project. Project file only.',
  }),
  setting({
    key: "agents.freshnessSeconds",
    field: "freshnessSeconds",
    type: count("seconds"),
    default: 600,
    env: "TANDEM_FRESHNESS",
    comment: "Seconds after which a silent session without a live process is stale.",
    doc: "a session silent this long, whose agent process is gone, is stale: its claims stop blocking.",
  }),
  setting({
    key: "agents.lineClaimMargin",
    field: "lineClaimMargin",
    type: count("lines"),
    default: 3,
    env: "TANDEM_LINE_CLAIM_MARGIN",
    comment:
      "An Edit, Write or patch may change a file a live peer holds when it stays this many unchanged lines away from the peer's uncommitted hunks.",
    doc: "an edit tool may change a file a live peer holds when it leaves this many unchanged lines between its change and the peer's uncommitted hunks (docs/decisions/0061).",
  }),
  setting({
    key: "agents.failClosed",
    field: "failClosed",
    type: flag(),
    default: false,
    env: "TANDEM_FAIL_CLOSED",
    comment: "On an internal error in a gating hook, deny instead of allow.",
    doc: "when a gating hook fails internally, refuse instead of allow. (A store that cannot be read, written or trusted always refuses gated edits and commits.)",
  }),
  setting({
    key: "agents.storeLockSeconds",
    field: "storeLockSeconds",
    type: count("seconds"),
    default: STORE_LOCK_SECONDS,
    env: "TANDEM_STORE_LOCK_SECONDS",
    comment: "Seconds a hook waits for another process's lock on the store before refusing the edit.",
    doc: "how long a hook waits for another process's lock on the store before refusing the edit.",
  }),
  setting({
    key: "agents.remoteClaims",
    field: "remoteClaims",
    type: oneOf(["warn", "block", "off"]),
    default: "warn",
    env: "TANDEM_REMOTE_CLAIMS",
    comment: 'A write to a path a session in another checkout claims or has dirty: "warn", "block" or "off".',
    doc: "a write to a path a live session in another checkout claims or has dirty (on a branch that meets yours): `warn` (allowed, the holder named), `block` or `off`.",
  }),
  setting({
    key: "remote.enabled",
    field: "remoteEnabled",
    type: flag(),
    default: true,
    env: "TANDEM_REMOTE",
    comment:
      "Share presence, claims and leases with other clones through the Git remote (docs/decisions/0014).",
    doc: "share presence, claims and leases with other clones through the Git remote (`docs/decisions/0014-presence-over-git-remote.md`); `tandem sync` runs one round.",
  }),
  setting({
    key: "remote.name",
    field: "remoteName",
    type: textOrNull("the name of a Git remote, or null (the current branch's remote, else origin)"),
    default: null,
    comment: "The remote to share through; null: the current branch's remote, else origin.",
    doc: "the remote to share through; `null`: the current branch's remote, else `origin`.",
  }),
  setting({
    key: "remote.intervalSeconds",
    field: "remoteIntervalSeconds",
    type: count("seconds"),
    default: 30,
    comment: "A background sync round runs at most this often (and on session start/end, claim changes).",
    doc: "a background sync round runs at most this often (and on session start/end and claim changes); each round moves the checkout's beat ref, which creates no object; presence itself is published only when it changes.",
  }),
  setting({
    key: "remote.timeoutSeconds",
    field: "remoteTimeoutSeconds",
    type: count("seconds"),
    default: 10,
    comment: "Seconds after which a fetch or push of a sync round is given up.",
    doc: "a fetch or push of a sync round is given up after this long.",
  }),
  setting({
    key: "remote.pruneDays",
    field: "remotePruneDays",
    type: count("days"),
    default: 7,
    comment: "`tandem sync --prune` deletes presence of checkouts silent this many days.",
    doc: "`tandem sync --prune` deletes presence refs of checkouts silent this long.",
  }),
  setting({
    key: "remote.presenceTtlMinutes",
    field: "remotePresenceTtlMinutes",
    type: count("minutes"),
    default: 15,
    comment:
      "Minutes after its last beat that another checkout's presence is ignored (a crashed machine's bound).",
    doc: "another checkout's presence neither published nor confirmed by a beat for this long is ignored: a crashed machine's sessions leave every view within this plus one `remote.intervalSeconds`.",
  }),
  setting({
    key: "remote.targetBranches",
    field: "remoteTargetBranches",
    type: textList("a list of branch names", "a non-empty branch name"),
    default: ["main", "master"],
    comment: "Branches every branch merges into: work there meets work on any branch.",
    doc: "branches every branch merges into: work on them meets work on any branch.",
  }),
  setting({
    key: "remote.engine",
    field: "remoteEngine",
    type: oneOf(["git", "nats"]),
    default: "git",
    env: "TANDEM_REMOTE_ENGINE",
    comment:
      'What carries presence and reservations between clones: "git" (the Git remote\'s refs) or "nats" (a NATS JetStream server, docs/remote.md).',
    doc: "what carries presence and reservations between clones: `git` (refs on the Git remote) or `nats` (key-value buckets of a NATS JetStream server, for fleets; `docs/remote.md`). Git stays the durable record either way.",
  }),
  setting({
    key: "remote.nats.url",
    field: "natsUrl",
    type: textOrNullFromEnv(
      'a NATS server URL such as "nats://nats.example:4222", or null',
      "a NATS server URL",
    ),
    default: null,
    env: "TANDEM_NATS_URL",
    comment:
      'The NATS server of remote.engine "nats"; a URL with a user, password or token belongs in TANDEM_NATS_URL, never in this committed file.',
    doc: "the NATS server of the `nats` engine; a URL that carries a user, password or token belongs in the variable or the user config, never in the committed file.",
  }),
  setting({
    key: "remote.nats.creds",
    field: "natsCreds",
    type: textOrNullFromEnv(
      "the path of a NATS .creds file, or null (none)",
      "the path of a NATS .creds file",
    ),
    default: null,
    env: "TANDEM_NATS_CREDS",
    comment:
      "The path of the NATS .creds file (JWT and seed) to connect with; null: none. The file itself stays out of git.",
    doc: "the path of a NATS `.creds` file (user JWT and seed) to connect with; the file itself is never committed.",
  }),
  setting({
    key: "remote.nats.bucket",
    field: "natsBucket",
    type: textOrNull(
      "a bucket name prefix of letters, digits, - and _, or null (from the repository's first commit)",
    ),
    default: null,
    comment:
      "Prefix of this repository's NATS buckets; null: tandem-<first 12 hex of the repository's root commit>.",
    doc: "prefix of the repository's three buckets (`<prefix>-presence`, `<prefix>-alive`, `<prefix>-leases`); `null`: `tandem-` and 12 hex digits of the repository's root commit, the same in every clone.",
  }),
  setting({
    key: "remote.nats.presenceTtlSeconds",
    field: "natsPresenceTtlSeconds",
    type: count("seconds"),
    default: 30,
    comment:
      "Seconds a checkout's presence lives on NATS without a refresh: a crashed machine's sessions leave within this.",
    doc: "how long a checkout's alive mark lives on NATS without a refresh (the alive bucket's max age, set when the bucket is first made); a live checkout refreshes it every third of this, so a crashed machine's sessions leave every view within this plus one sync round.",
  }),
  setting({
    key: "land.check",
    field: "landCheck",
    type: commandOrNull(
      'a shell command run on the rebased result before a push, e.g. "npm test", or null (none)',
    ),
    default: null,
    env: "TANDEM_LAND_CHECK",
    comment:
      'A shell command `tandem land` runs on the rebased result, in a private worktree, before it pushes (e.g. "npm test"); a failing check pushes nothing (docs/land.md).',
    doc: "a shell command `tandem land` runs on the rebased result in a private worktree before it pushes; a failing check pushes nothing (`docs/land.md`).",
  }),
  setting({
    key: "land.checkTimeoutSeconds",
    field: "landCheckTimeoutSeconds",
    type: count("seconds"),
    default: 600,
    env: "TANDEM_LAND_CHECK_TIMEOUT",
    comment: "Seconds after which the check is killed and the landing refused.",
    doc: "the check is killed, and the landing refused, after this long.",
  }),
  setting({
    key: "store.autoGc",
    field: "autoGc",
    type: flag(),
    default: false,
    comment: "Run `tandem gc` (30-day retention) in the background at most once a day.",
    doc: "run `tandem gc` (30-day retention) in the background, at most once a day, started by a session start (decision 0012).",
  }),
  setting({
    key: "retention.versionsPerFile",
    field: "retentionVersionsPerFile",
    type: count("versions"),
    default: 20,
    comment:
      "Saved versions of one file kept for one owner by `tandem gc`; the first and the latest are always kept (decision 0065).",
    doc: "saved versions of one file kept per owner by `tandem gc`; the first and the latest are always kept, the ones between go oldest first (decision 0065).",
  }),
  setting({
    key: "retention.largeFileBytes",
    field: "retentionLargeFileBytes",
    type: count("bytes"),
    default: 16 * 1024 * 1024,
    comment: "A saved version at least this big is a large file's: only the latest few are kept.",
    doc: "a saved version at least this big counts as a large file's, kept by `retention.largeFileVersions` instead.",
  }),
  setting({
    key: "retention.largeFileVersions",
    field: "retentionLargeFileVersions",
    type: count("versions"),
    default: 2,
    comment: "Latest versions of a large file kept per owner (its first is not kept for its own sake).",
    doc: "latest versions of a large file kept per owner by `tandem gc`; older large versions go, the first one too.",
  }),
  setting({
    key: "retention.sessionBytes",
    field: "retentionSessionBytes",
    type: count("bytes"),
    default: 256 * 1024 * 1024,
    comment: "Bytes of saved versions kept per session; past it `tandem gc` frees its oldest versions first.",
    doc: "bytes of saved versions one session may keep; past it `tandem gc` lets its oldest versions go first (each file's latest, and a version a clobber replaced, stay); `doctor` reports a session over it as a problem.",
  }),
  setting({
    key: "retention.repositoryBytes",
    field: "retentionRepositoryBytes",
    type: count("bytes"),
    default: 1024 * 1024 * 1024,
    comment:
      "Bytes of saved versions kept for the whole repository; past it `tandem gc` frees the oldest first.",
    doc: "bytes of saved versions the repository may keep; past it `tandem gc` lets the oldest go first (each file's latest, and a version a clobber replaced, stay); `doctor` reports the repository over it as a problem.",
  }),
  setting({
    key: "server.enabled",
    field: "serverEnabled",
    type: flag(),
    default: true,
    env: "TANDEM_SERVER",
    comment:
      "Answer hooks through this repository's resident server (docs/server.md); false keeps every hook in Node.",
    doc: "answer hooks and `status`/`task`/`release` through the repository's resident server (`docs/server.md`); `false` runs every one in Node. `TANDEM_THIN_TRANSPORT=curl` keeps the thin client on curl and the unix socket instead of bash and the loopback port.",
  }),
  setting({
    key: "server.idleMinutes",
    field: "serverIdleMinutes",
    type: count("minutes"),
    default: 30,
    comment: "Minutes without a request after which the server exits.",
    doc: "the server exits after this long without a request.",
  }),
  setting({
    key: "subagents.worktreeRoot",
    field: "worktreeRoot",
    type: text<string | null>("a non-empty directory path"),
    default: null,
    example: "../worktrees",
    docDefault: "`$XDG_STATE_HOME/tandem/worktrees/<repo>-<8 hex>`",
    comment:
      "Where child worktrees are created. Default: $XDG_STATE_HOME/tandem/worktrees/<repo> (~/.local/state/...), outside .git where agents may edit; the value below is an example.",
    doc: "where child worktrees are created (relative paths are relative to the project). Never inside `.git`: Claude Code refuses to edit files there (decision 0007).",
  }),
  setting({
    key: "subagents.clients",
    field: "clients",
    type: launches(LAUNCHERS),
    default: {},
    docDefault: "built in",
    comment: `Command and extra args used to launch each client headless (default: built in), e.g. { "${LAUNCHERS[0]}": { "command": "/opt/bin/${LAUNCHERS[0]}", "args": ["--model", "<model>"] } };\nkeys: ${LAUNCHERS.join(", ")}.`,
    doc: `\`{ "<client>": { "command": …, "args": [...] } }\` to launch a client headless, or a wrapper for \`exec\`; clients: ${LAUNCHERS.map((c) => `\`${c}\``).join(", ")}.`,
  }),
  setting({
    key: "subagents.capture.maxPatchBytes",
    field: "maxPatchBytes",
    type: count("bytes"),
    default: 10 * 1024 * 1024,
    comment: "Byte cap of a child worktree's diff.",
    doc: "cap on a child's uncommitted-changes patch.",
  }),
  setting({
    key: "subagents.capture.maxDirtyBytes",
    field: "maxDirtyBytes",
    type: count("bytes"),
    default: 256 * 1024 * 1024,
    comment: "On-disk size bound of a child's uncommitted files, checked before capture.",
    doc: "on-disk size of dirty files above which uncommitted work is not captured (and said so).",
  }),
] as const;

export type ConfigKey = (typeof CONFIG_KEYS)[number];
/** The keys that fill a setting. */
export type SettingKey = Extract<ConfigKey, { field: string }>;

/** The settings every hook and command reads: defaults, then the files, then TANDEM_*. */
export type Config = { -readonly [E in SettingKey as E["field"]]: E["default"] };

type InitKey = Extract<ConfigKey, { key: `init.${string}` }>;
/** The `init` object of the file: how the project's wiring was made. */
export type InitFile = {
  [E in InitKey as E["key"] extends `init.${infer N}` ? N : never]?: Exclude<E["default"], undefined>;
};

export const SETTING_KEYS = CONFIG_KEYS.filter((k): k is SettingKey => k.field !== null);
