import * as z from "zod/mini";

/**
 * The kinds of value a config key holds. A kind knows its schema (built only when a config file
 * is read: most hooks find none), what it accepts in words, and how a TANDEM_* variable spells it.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false };

export interface EnvSpelling<T> {
  parse: (raw: string) => Parsed<T>;
  /** Reads after "it must be". */
  allowed: string;
  /** What the docs show after the variable's name: `=1|0`, or nothing. */
  shown: string;
}

export interface KeyType<T> {
  schema: () => z.ZodMiniType;
  /** What the key accepts, reading after "it must be"; null: described from its object's keys. */
  allowed: string | null;
  /** Descriptions of what lies inside the value, by path suffix (`[]`, `[].path`, `.*.command`). */
  parts?: Readonly<Record<string, string>>;
  env?: EnvSpelling<T>;
  /** How a later layer's value combines with an earlier one; absent: it replaces it. */
  merge?(base: T, over: T): T;
}

/** `"a", "b" or "c"` (`joiner` "and" for a list of names). */
export function quotedList(values: readonly string[], joiner = "or"): string {
  const q = values.map((v) => `"${v}"`);
  return q.length < 2 ? q.join("") : `${q.slice(0, -1).join(", ")} ${joiner} ${q.at(-1)}`;
}

const TRUE_OR_FALSE = "true or false";

export function flag(): KeyType<boolean> {
  return {
    schema: () => z.boolean(),
    allowed: TRUE_OR_FALSE,
    env: {
      parse: (v) =>
        v === "1" || v === "true"
          ? { ok: true, value: true }
          : v === "0" || v === "false"
            ? { ok: true, value: false }
            : { ok: false },
      allowed: "1 or 0",
      shown: "=1|0",
    },
  };
}

export function oneOf<const T extends string>(values: readonly [T, ...T[]]): KeyType<T> {
  const allowed = `one of ${quotedList(values)}`;
  return {
    schema: () => z.enum(values as [T, ...T[]]),
    allowed,
    env: {
      parse: (v) => ((values as readonly string[]).includes(v) ? { ok: true, value: v as T } : { ok: false }),
      allowed,
      shown: "",
    },
  };
}

const positiveInt = () => z.number().check(z.int(), z.positive());

/** A whole number above 0, counted in `unit` ("seconds", "bytes"…). */
export function count(unit: string): KeyType<number> {
  const allowed = `a whole number of ${unit} above 0`;
  return {
    schema: positiveInt,
    allowed,
    env: {
      parse: (v) => {
        const n = Number(v);
        return Number.isInteger(n) && n > 0 ? { ok: true, value: n } : { ok: false };
      },
      allowed,
      shown: "",
    },
  };
}

const nonEmpty = () => z.string().check(z.minLength(1));

/** A non-empty string; `T` widens it to what the setting holds when the key is absent (null). */
export function text<T extends string | null = string>(allowed: string): KeyType<T> {
  return { schema: nonEmpty, allowed };
}

/** A string, or null for "the usual choice". */
export function textOrNull(allowed: string): KeyType<string | null> {
  return { schema: () => z.nullable(nonEmpty()), allowed };
}

/** A string or null, which a TANDEM_* variable may also give (a URL, a file's path). */
export function textOrNullFromEnv(allowed: string, envAllowed: string): KeyType<string | null> {
  return {
    ...textOrNull(allowed),
    env: {
      parse: (v) => (v.trim() ? { ok: true, value: v.trim() } : { ok: false }),
      allowed: envAllowed,
      shown: "",
    },
  };
}

/** A shell command, or null for none; a TANDEM_* variable gives the command itself. */
export function commandOrNull(allowed: string): KeyType<string | null> {
  return {
    schema: () => z.nullable(nonEmpty()),
    allowed,
    env: {
      parse: (v) => (v.trim() ? { ok: true, value: v } : { ok: false }),
      allowed: "a shell command",
      shown: "",
    },
  };
}

export function anyText(allowed: string): KeyType<string> {
  return { schema: () => z.string(), allowed };
}

/** A list of non-empty strings: `allowed` says what the list is, `item` what one entry is. */
export function textList(allowed: string, item: string): KeyType<string[]> {
  return { schema: () => z.array(nonEmpty()), allowed, parts: { "[]": item } };
}

/** A list of `values`. */
export function listOf<const T extends string>(values: readonly [T, ...T[]]): KeyType<T[]> {
  return {
    schema: () => z.array(z.enum(values as [T, ...T[]])),
    allowed: `a list of ${values.map((v) => `"${v}"`).join(", ")}`,
    parts: { "[]": quotedList(values) },
  };
}

export interface FinalizationRootEntry {
  path: string;
  disposition: "git" | "output";
}

const finalizationRoot = () => z.strictObject({ path: nonEmpty(), disposition: z.enum(["git", "output"]) });

/** Extra roots checked at the end of a turn. */
export function finalizationRoots(): KeyType<FinalizationRootEntry[]> {
  const entry = '{ "path": "<directory relative to the root>", "disposition": "git" or "output" }';
  return {
    schema: () => z.array(finalizationRoot()),
    allowed: `a list of ${entry}`,
    parts: {
      "[]": entry,
      "[].path": "a non-empty path relative to the root",
      "[].disposition": '"git" or "output"',
    },
  };
}

export interface ClientLaunch {
  command: string;
  args?: string[];
}

/** A launch line per client name; a later layer's entries replace the same client's only. */
export function launches<const T extends string>(
  names: readonly [T, ...T[]],
): KeyType<Partial<Record<T, ClientLaunch>>> {
  const launch = () => z.strictObject({ command: nonEmpty(), args: z.optional(z.array(z.string())) });
  return {
    schema: () => z.partialRecord(z.enum(names as [T, ...T[]]), launch()),
    allowed: null,
    parts: { ".*.command": "a non-empty command", ".*.args": "a list of strings" },
    merge: (base, over) => ({ ...base, ...over }),
  };
}
