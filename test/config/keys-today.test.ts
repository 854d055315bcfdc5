import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { tempDir, writeFiles } from "../helpers/repo.js";

/**
 * Every config key as it stood before the keys became one table: its name in the file, the
 * setting it fills, its default and its TANDEM_* variable. Written against behaviour (files and
 * variables read by loadConfig), so it held before the table existed and holds after.
 */
interface Today {
  key: string;
  field: keyof typeof DEFAULT_CONFIG;
  default: unknown;
  /** A valid value other than the default, as written in the file. */
  sample: unknown;
  env?: [name: string, value: string, parsed: unknown, bad?: string];
}

const TODAY: Today[] = [
  {
    key: "guard",
    field: "guard",
    default: "reader",
    sample: "kernel",
    env: ["TANDEM_GUARD", "kernel", "kernel"],
  },
  {
    key: "agents.stopRitual",
    field: "stopRitual",
    default: "enforce",
    sample: "observe",
    env: ["TANDEM_STOP_RITUAL", "off", "off"],
  },
  {
    key: "agents.requireGitFinalization",
    field: "requireGitFinalization",
    default: false,
    sample: true,
    env: ["TANDEM_REQUIRE_GIT_FINALIZATION", "1", true],
  },
  {
    key: "agents.finalizationRoots",
    field: "finalizationRoots",
    default: [],
    sample: [{ path: "out", disposition: "output" }],
  },
  {
    key: "agents.freshnessSeconds",
    field: "freshnessSeconds",
    default: 600,
    sample: 60,
    env: ["TANDEM_FRESHNESS", "5", 5],
  },
  {
    key: "agents.lineClaimMargin",
    field: "lineClaimMargin",
    default: 3,
    sample: 5,
    env: ["TANDEM_LINE_CLAIM_MARGIN", "2", 2],
  },
  {
    key: "agents.failClosed",
    field: "failClosed",
    default: false,
    sample: true,
    env: ["TANDEM_FAIL_CLOSED", "true", true],
  },
  {
    key: "agents.storeLockSeconds",
    field: "storeLockSeconds",
    default: 5,
    sample: 9,
    env: ["TANDEM_STORE_LOCK_SECONDS", "7", 7],
  },
  {
    key: "agents.remoteClaims",
    field: "remoteClaims",
    default: "warn",
    sample: "block",
    env: ["TANDEM_REMOTE_CLAIMS", "off", "off"],
  },
  {
    key: "remote.enabled",
    field: "remoteEnabled",
    default: true,
    sample: false,
    env: ["TANDEM_REMOTE", "0", false],
  },
  { key: "remote.name", field: "remoteName", default: null, sample: "upstream" },
  { key: "remote.intervalSeconds", field: "remoteIntervalSeconds", default: 30, sample: 45 },
  { key: "remote.timeoutSeconds", field: "remoteTimeoutSeconds", default: 10, sample: 20 },
  { key: "remote.pruneDays", field: "remotePruneDays", default: 7, sample: 3 },
  { key: "remote.presenceTtlMinutes", field: "remotePresenceTtlMinutes", default: 15, sample: 5 },
  {
    key: "remote.targetBranches",
    field: "remoteTargetBranches",
    default: ["main", "master"],
    sample: ["trunk"],
  },
  {
    key: "remote.engine",
    field: "remoteEngine",
    default: "git",
    sample: "nats",
    env: ["TANDEM_REMOTE_ENGINE", "nats", "nats", "etcd"],
  },
  {
    key: "remote.nats.url",
    field: "natsUrl",
    default: null,
    sample: "nats://nats.example:4222",
    env: ["TANDEM_NATS_URL", "nats://127.0.0.1:4222", "nats://127.0.0.1:4222", " "],
  },
  {
    key: "remote.nats.creds",
    field: "natsCreds",
    default: null,
    sample: "/home/me/.nats/tandem.creds",
    env: ["TANDEM_NATS_CREDS", "/run/secrets/nats.creds", "/run/secrets/nats.creds", " "],
  },
  { key: "remote.nats.bucket", field: "natsBucket", default: null, sample: "team-x" },
  { key: "remote.nats.presenceTtlSeconds", field: "natsPresenceTtlSeconds", default: 30, sample: 90 },
  {
    key: "land.check",
    field: "landCheck",
    default: null,
    sample: "npm test",
    // Any command is a value; only an empty one is not.
    env: ["TANDEM_LAND_CHECK", "make check", "make check", " "],
  },
  {
    key: "land.checkTimeoutSeconds",
    field: "landCheckTimeoutSeconds",
    default: 600,
    sample: 90,
    env: ["TANDEM_LAND_CHECK_TIMEOUT", "5", 5],
  },
  { key: "store.autoGc", field: "autoGc", default: false, sample: true },
  { key: "retention.versionsPerFile", field: "retentionVersionsPerFile", default: 20, sample: 5 },
  {
    key: "retention.largeFileBytes",
    field: "retentionLargeFileBytes",
    default: 16 * 1024 * 1024,
    sample: 1024,
  },
  { key: "retention.largeFileVersions", field: "retentionLargeFileVersions", default: 2, sample: 3 },
  { key: "retention.sessionBytes", field: "retentionSessionBytes", default: 256 * 1024 * 1024, sample: 1024 },
  {
    key: "retention.repositoryBytes",
    field: "retentionRepositoryBytes",
    default: 1024 * 1024 * 1024,
    sample: 2048,
  },
  {
    key: "server.enabled",
    field: "serverEnabled",
    default: true,
    sample: false,
    env: ["TANDEM_SERVER", "false", false],
  },
  { key: "server.idleMinutes", field: "serverIdleMinutes", default: 30, sample: 5 },
  { key: "subagents.worktreeRoot", field: "worktreeRoot", default: null, sample: "../wt" },
  {
    key: "subagents.clients",
    field: "clients",
    default: {},
    sample: { codex: { command: "codex", args: ["-q"] } },
  },
  { key: "subagents.capture.maxPatchBytes", field: "maxPatchBytes", default: 10 * 1024 * 1024, sample: 1024 },
  {
    key: "subagents.capture.maxDirtyBytes",
    field: "maxDirtyBytes",
    default: 256 * 1024 * 1024,
    sample: 2048,
  },
];

/** `{ "a": { "b": value } }` for the key `a.b`. */
const nest = (key: string, value: unknown): string =>
  key.split(".").reduceRight((inner, k) => `{ "${k}": ${inner} }`, JSON.stringify(value));

function project(text?: string) {
  const root = tempDir();
  if (text !== undefined) writeFiles(root, { ".tandem/config.jsonc": text });
  return { root, env: { XDG_CONFIG_HOME: tempDir() } as Record<string, string> };
}

describe("every config key keeps its name, default and variable", () => {
  it("has exactly these settings and defaults", () => {
    expect(DEFAULT_CONFIG).toEqual(Object.fromEntries(TODAY.map((t) => [t.field, t.default])));
  });

  it.each(TODAY)("$key fills $field, defaults to $default and is read from the file", (t) => {
    const { root, env } = project(nest(t.key, t.sample));
    const loaded = loadConfig(root, env);
    expect(loaded.problems).toEqual([]);
    expect(loaded.config).toEqual({ ...DEFAULT_CONFIG, [t.field]: t.sample });
    const bare = project();
    expect(loadConfig(bare.root, bare.env).config[t.field]).toEqual(t.default);
  });

  it.each(TODAY.filter((t) => t.env))("$key is overridden by its variable", (t) => {
    const [name, value, parsed, badValue = "not-a-value"] = t.env!;
    const { root, env } = project(nest(t.key, t.sample));
    expect(loadConfig(root, { ...env, [name]: value }).config[t.field]).toEqual(parsed);
    const bad = loadConfig(root, { ...env, [name]: badValue });
    expect(bad.config[t.field]).toEqual(t.sample);
    expect(bad.problems).toEqual([expect.objectContaining({ source: "environment", key: name })]);
  });
});
