import { type ConfigProblem, ENVIRONMENT } from "./problems.js";
import type { Config } from "./schema.js";

/**
 * TANDEM_* overrides for this process. A value that is not understood is ignored (the config's
 * value stays) and reported: a typo in a variable must not stop a hook from gating.
 */

type Env = Readonly<Record<string, string | undefined>>;
type Parsed<T> = { ok: true; value: T } | { ok: false };

interface Override<K extends keyof Config> {
  name: string;
  field: K;
  allowed: string;
  parse: (v: string) => Parsed<Config[K]>;
}

const flag = (v: string): Parsed<boolean> =>
  v === "1" || v === "true"
    ? { ok: true, value: true }
    : v === "0" || v === "false"
      ? { ok: true, value: false }
      : { ok: false };

const positiveWhole = (v: string): Parsed<number> => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? { ok: true, value: n } : { ok: false };
};

const RITUALS = ["enforce", "observe", "off"] as const;
const REMOTE_CLAIMS = ["warn", "block", "off"] as const;

const OVERRIDES = [
  {
    name: "TANDEM_STOP_RITUAL",
    field: "stopRitual",
    allowed: 'one of "enforce", "observe" or "off"',
    parse: (v: string): Parsed<Config["stopRitual"]> =>
      (RITUALS as readonly string[]).includes(v)
        ? { ok: true, value: v as Config["stopRitual"] }
        : { ok: false },
  } satisfies Override<"stopRitual">,
  {
    name: "TANDEM_REQUIRE_GIT_FINALIZATION",
    field: "requireGitFinalization",
    allowed: "1 or 0",
    parse: flag,
  } satisfies Override<"requireGitFinalization">,
  {
    name: "TANDEM_FRESHNESS",
    field: "freshnessSeconds",
    allowed: "a whole number of seconds above 0",
    parse: positiveWhole,
  } satisfies Override<"freshnessSeconds">,
  {
    name: "TANDEM_SERVER",
    field: "serverEnabled",
    allowed: "1 or 0",
    parse: flag,
  } satisfies Override<"serverEnabled">,
  {
    name: "TANDEM_REMOTE",
    field: "remoteEnabled",
    allowed: "1 or 0",
    parse: flag,
  } satisfies Override<"remoteEnabled">,
  {
    name: "TANDEM_FAIL_CLOSED",
    field: "failClosed",
    allowed: "1 or 0",
    parse: flag,
  } satisfies Override<"failClosed">,
  {
    name: "TANDEM_STORE_LOCK_SECONDS",
    field: "storeLockSeconds",
    allowed: "a whole number of seconds above 0",
    parse: positiveWhole,
  } satisfies Override<"storeLockSeconds">,
  {
    name: "TANDEM_REMOTE_CLAIMS",
    field: "remoteClaims",
    allowed: 'one of "warn", "block" or "off"',
    parse: (v: string): Parsed<Config["remoteClaims"]> =>
      (REMOTE_CLAIMS as readonly string[]).includes(v)
        ? { ok: true, value: v as Config["remoteClaims"] }
        : { ok: false },
  } satisfies Override<"remoteClaims">,
  {
    name: "TANDEM_LAND_CHECK",
    field: "landCheck",
    allowed: "a shell command",
    parse: (v: string): Parsed<string | null> => ({ ok: true, value: v }),
  } satisfies Override<"landCheck">,
  {
    name: "TANDEM_LAND_CHECK_TIMEOUT",
    field: "landCheckTimeoutSeconds",
    allowed: "a whole number of seconds above 0",
    parse: positiveWhole,
  } satisfies Override<"landCheckTimeoutSeconds">,
];

export function applyEnv(config: Config, env: Env): { config: Config; problems: ConfigProblem[] } {
  const out: Record<string, unknown> = { ...config };
  const problems: ConfigProblem[] = [];
  for (const o of OVERRIDES) {
    const raw = env[o.name];
    if (raw === undefined || raw === "") continue;
    const parsed = o.parse(raw);
    if (parsed.ok) {
      out[o.field] = parsed.value;
      continue;
    }
    problems.push({
      source: ENVIRONMENT,
      kind: "bad-value",
      key: o.name,
      line: null,
      column: null,
      problem: `is ${JSON.stringify(raw)}`,
      allowed: o.allowed,
      didYouMean: null,
      using: JSON.stringify(config[o.field]),
    });
  }
  return { config: out as unknown as Config, problems };
}
