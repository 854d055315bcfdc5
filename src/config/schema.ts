import * as z from "zod/mini";
import { type KeyTree, keyTree } from "./key-tree.js";
import { CONFIG_KEYS, type Config, type InitFile, SETTING_KEYS } from "./keys.js";

export type { ClientLaunch, FinalizationRootEntry } from "./key-types.js";
export type { Config, InitFile } from "./keys.js";

/**
 * The shape of `.tandem/config.jsonc` and the user config (docs/product.md §3), built from the
 * key table (keys.ts). Unknown keys are refused: the loader reports them and leaves them out
 * (src/config/validate.ts).
 */

type Tree = KeyTree<z.ZodMiniType>;

const schemaTree = () => keyTree(CONFIG_KEYS, (def) => def.type.schema());

const objectOf = (tree: Tree): z.ZodMiniType =>
  z.strictObject(
    Object.fromEntries(
      [...tree].map(([k, v]) => [k, z.optional(v instanceof Map ? objectOf(v) : v)] as const),
    ),
  );

let configFile: z.ZodMiniType | null = null;

/** Built when a config file is first read: most hooks find none. */
export function configFileSchema(): z.ZodMiniType {
  if (!configFile) configFile = objectOf(schemaTree());
  return configFile;
}

let init: z.ZodMiniType<InitFile | undefined> | null = null;

/** The schema of the `init` object alone, for the record `tandem init` keeps. */
export function initSchema(): z.ZodMiniType<InitFile | undefined> {
  if (!init)
    init = z.optional(objectOf(schemaTree().get("init") as Tree)) as z.ZodMiniType<InitFile | undefined>;
  return init;
}

/** What a config file holds, once validated: its sections, each an object of valid keys. */
export interface ConfigFile {
  init?: InitFile;
  [section: string]: unknown;
}

/**
 * What each key accepts, in words that read after "it must be" and "set it to". Keys are dotted
 * paths; `[]` stands for any list item and `*` for any client name. Objects are described from
 * their keys, so only leaves are listed.
 */
export const ALLOWED: Readonly<Record<string, string>> = Object.fromEntries(
  CONFIG_KEYS.flatMap((def) => [
    ...(def.type.allowed === null ? [] : [[def.key, def.type.allowed]]),
    ...Object.entries(def.type.parts ?? {}).map(([suffix, text]) => [`${def.key}${suffix}`, text]),
  ]),
);

export const DEFAULT_CONFIG: Config = Object.fromEntries(
  SETTING_KEYS.map((def) => [def.field, def.default]),
) as Config;
