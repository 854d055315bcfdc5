import * as z from "zod/mini";
import { CLIENT_NAMES, type ClientName, quotedNames } from "../clients/index.js";
import { STORE_LOCK_SECONDS } from "./store-lock.js";

const positiveInt = () => z.number().check(z.int(), z.positive());

const finalizationRoot = () =>
  z.strictObject({
    path: z.string().check(z.minLength(1)),
    disposition: z.enum(["git", "output"]),
  });

const clientLaunch = () =>
  z.strictObject({
    command: z.string().check(z.minLength(1)),
    args: z.optional(z.array(z.string())),
  });

/**
 * The shape of `.tandem/config.jsonc` and the user config (docs/product.md §3). Unknown keys
 * are refused: the loader reports them and leaves them out (src/config/validate.ts).
 * Built when a config file is first read: most hooks find none.
 */
const buildConfigFileSchema = () =>
  z.strictObject({
    $schema: z.optional(z.string()),
    // How `tandem init` was run, so `init --check`, `doctor` and a re-run keep the team's choice.
    init: z.optional(
      z.strictObject({
        command: z.optional(z.string().check(z.minLength(1))),
        clients: z.optional(z.array(z.enum(CLIENT_NAMES))),
        gitHooks: z.optional(z.boolean()),
      }),
    ),
    agents: z.optional(
      z.strictObject({
        stopRitual: z.optional(z.enum(["enforce", "observe", "off"])),
        requireGitFinalization: z.optional(z.boolean()),
        finalizationRoots: z.optional(z.array(finalizationRoot())),
        freshnessSeconds: z.optional(positiveInt()),
        failClosed: z.optional(z.boolean()),
        storeLockSeconds: z.optional(positiveInt()),
        remoteClaims: z.optional(z.enum(["warn", "block", "off"])),
      }),
    ),
    remote: z.optional(
      z.strictObject({
        enabled: z.optional(z.boolean()),
        name: z.optional(z.nullable(z.string().check(z.minLength(1)))),
        intervalSeconds: z.optional(positiveInt()),
        timeoutSeconds: z.optional(positiveInt()),
        pruneDays: z.optional(positiveInt()),
        presenceTtlMinutes: z.optional(positiveInt()),
        targetBranches: z.optional(z.array(z.string().check(z.minLength(1)))),
      }),
    ),
    land: z.optional(
      z.strictObject({
        check: z.optional(z.nullable(z.string().check(z.minLength(1)))),
        checkTimeoutSeconds: z.optional(positiveInt()),
      }),
    ),
    store: z.optional(z.strictObject({ autoGc: z.optional(z.boolean()) })),
    server: z.optional(
      z.strictObject({ enabled: z.optional(z.boolean()), idleMinutes: z.optional(positiveInt()) }),
    ),
    subagents: z.optional(
      z.strictObject({
        worktreeRoot: z.optional(z.string().check(z.minLength(1))),
        clients: z.optional(z.partialRecord(z.enum([...CLIENT_NAMES, "exec"]), clientLaunch())),
        capture: z.optional(
          z.strictObject({
            maxPatchBytes: z.optional(positiveInt()),
            maxDirtyBytes: z.optional(positiveInt()),
          }),
        ),
      }),
    ),
  });

let configFile: ReturnType<typeof buildConfigFileSchema> | undefined;

export function configFileSchema(): ReturnType<typeof buildConfigFileSchema> {
  configFile ??= buildConfigFileSchema();
  return configFile;
}

/**
 * What each key accepts, in words that read after "it must be" and "set it to". Keys are dotted
 * paths; `[]` stands for any list item and `*` for any client name. Objects are described from
 * their keys, so only leaves are listed.
 */
const ROOT_ENTRY = '{ "path": "<directory relative to the root>", "disposition": "git" or "output" }';

export const ALLOWED: Readonly<Record<string, string>> = {
  $schema: "a string (the URL of a JSON schema)",
  "init.command": 'a command ending in tandem, e.g. "tandem" or "node_modules/.bin/tandem"',
  "init.clients": `a list of ${quotedNames(CLIENT_NAMES, null)}`,
  "init.clients[]": quotedNames(CLIENT_NAMES),
  "init.gitHooks": "true or false",
  "agents.stopRitual": 'one of "enforce", "observe" or "off"',
  "agents.requireGitFinalization": "true or false",
  "agents.finalizationRoots": `a list of ${ROOT_ENTRY}`,
  "agents.finalizationRoots[]": ROOT_ENTRY,
  "agents.finalizationRoots[].path": "a non-empty path relative to the root",
  "agents.finalizationRoots[].disposition": '"git" or "output"',
  "agents.freshnessSeconds": "a whole number of seconds above 0",
  "agents.failClosed": "true or false",
  "agents.storeLockSeconds": "a whole number of seconds above 0",
  "agents.remoteClaims": 'one of "warn", "block" or "off"',
  "remote.enabled": "true or false",
  "remote.name": "the name of a Git remote, or null (the current branch's remote, else origin)",
  "remote.intervalSeconds": "a whole number of seconds above 0",
  "remote.timeoutSeconds": "a whole number of seconds above 0",
  "remote.pruneDays": "a whole number of days above 0",
  "remote.presenceTtlMinutes": "a whole number of minutes above 0",
  "remote.targetBranches": "a list of branch names",
  "remote.targetBranches[]": "a non-empty branch name",
  "land.check": 'a shell command run on the rebased result before a push, e.g. "npm test", or null (none)',
  "land.checkTimeoutSeconds": "a whole number of seconds above 0",
  "store.autoGc": "true or false",
  "server.enabled": "true or false",
  "server.idleMinutes": "a whole number of minutes above 0",
  "subagents.worktreeRoot": "a non-empty directory path",
  "subagents.clients.*.command": "a non-empty command",
  "subagents.clients.*.args": "a list of strings",
  "subagents.capture.maxPatchBytes": "a whole number of bytes above 0",
  "subagents.capture.maxDirtyBytes": "a whole number of bytes above 0",
};

export type ConfigFile = z.infer<ReturnType<typeof buildConfigFileSchema>>;
export type FinalizationRootEntry = z.infer<ReturnType<typeof finalizationRoot>>;
export type ClientLaunch = z.infer<ReturnType<typeof clientLaunch>>;

export interface Config {
  stopRitual: "enforce" | "observe" | "off";
  requireGitFinalization: boolean;
  finalizationRoots: FinalizationRootEntry[];
  freshnessSeconds: number;
  failClosed: boolean;
  /** How long a hook waits for another process's write lock on the store before refusing. */
  storeLockSeconds: number;
  /** Run `tandem gc` in the background at most daily, started by a session-start hook. */
  autoGc: boolean;
  /** Answer hooks through the resident server (docs/server.md); false keeps every hook in Node. */
  serverEnabled: boolean;
  /** The server exits after this long without a request. */
  serverIdleMinutes: number;
  worktreeRoot: string | null;
  clients: Partial<Record<ClientName | "exec", ClientLaunch>>;
  maxPatchBytes: number;
  maxDirtyBytes: number;
  /** Share presence through the Git remote (docs/decisions/0014). */
  remoteEnabled: boolean;
  /** The remote to share through; null: the current branch's remote, else origin. */
  remoteName: string | null;
  /** A background sync round starts at most this often; an unchanged presence is re-published this often. */
  remoteIntervalSeconds: number;
  /** A network git call of a sync round is killed after this long. */
  remoteTimeoutSeconds: number;
  /** `tandem sync --prune` deletes presence refs of checkouts silent this long. */
  remotePruneDays: number;
  /** A remote presence document older than this is ignored. */
  remotePresenceTtlMinutes: number;
  /** Branches every branch merges into: work on them meets work on any branch. */
  remoteTargetBranches: string[];
  /** What a write to a path another checkout holds gets: a warning, a refusal, or nothing. */
  remoteClaims: "warn" | "block" | "off";
  /** A shell command `tandem land` runs on the rebased result before pushing; null: none (docs/land.md). */
  landCheck: string | null;
  /** The check is killed (and the landing refused) after this long. */
  landCheckTimeoutSeconds: number;
}

export const DEFAULT_CONFIG: Config = {
  stopRitual: "enforce",
  requireGitFinalization: false,
  finalizationRoots: [],
  freshnessSeconds: 600,
  failClosed: false,
  storeLockSeconds: STORE_LOCK_SECONDS,
  autoGc: false,
  serverEnabled: true,
  serverIdleMinutes: 30,
  worktreeRoot: null,
  clients: {},
  maxPatchBytes: 10 * 1024 * 1024,
  maxDirtyBytes: 256 * 1024 * 1024,
  remoteEnabled: true,
  remoteName: null,
  remoteIntervalSeconds: 30,
  remoteTimeoutSeconds: 10,
  remotePruneDays: 7,
  remotePresenceTtlMinutes: 15,
  remoteTargetBranches: ["main", "master"],
  remoteClaims: "warn",
  landCheck: null,
  landCheckTimeoutSeconds: 600,
};
