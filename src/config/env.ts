import type { EnvSpelling } from "./key-types.js";
import { type Config, SETTING_KEYS } from "./keys.js";
import { type ConfigProblem, ENVIRONMENT } from "./problems.js";

/**
 * TANDEM_* overrides for this process. A value that is not understood is ignored (the config's
 * value stays) and reported: a typo in a variable must not stop a hook from gating.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** The keys with a variable, in table order (keys.ts). */
const OVERRIDES = SETTING_KEYS.flatMap((def) => {
  const spelling = def.type.env as EnvSpelling<unknown> | undefined;
  return def.env && spelling ? [{ name: def.env, field: def.field as keyof Config, spelling }] : [];
});

export function applyEnv(config: Config, env: Env): { config: Config; problems: ConfigProblem[] } {
  const out: Record<string, unknown> = { ...config };
  const problems: ConfigProblem[] = [];
  for (const o of OVERRIDES) {
    const raw = env[o.name];
    if (raw === undefined || raw === "") continue;
    const parsed = o.spelling.parse(raw);
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
      allowed: o.spelling.allowed,
      didYouMean: null,
      using: JSON.stringify(config[o.field]),
    });
  }
  return { config: out as unknown as Config, problems };
}
