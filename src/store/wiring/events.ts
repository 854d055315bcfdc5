import * as z from "zod/mini";

const clients = () => z.array(z.string());

/**
 * The wiring's own events (docs/decisions/0024): what `tandem init` recorded, what `deinit`
 * dropped, each restoration of Tandem's entries after something else changed them, and each
 * session told of them.
 */
export const WIRING_EVENT_SCHEMAS = {
  "wiring.recorded": () =>
    z.object({
      root: z.string(),
      launcher: z.string(),
      clients: clients(),
      gitHooks: z.boolean(),
      files: z.array(z.string()),
    }),
  "wiring.cleared": () => z.object({ root: z.string(), clients: clients(), gitHooks: z.boolean() }),
  "wiring.restored": () =>
    z.object({
      root: z.string(),
      /** Absolute path of the file restored. */
      file: z.string(),
      /** One line per entry of Tandem's that was missing or altered. */
      changes: z.array(z.string()),
      /** The session whose hook found the change; null when the resident server's watch did. */
      foundBy: z.nullable(z.string()),
      via: z.enum(["hook", "server"]),
      /** The last session whose tool call was asked for before the file changed, when known. */
      lastCommandBy: z.nullable(z.string()),
      /** When the file changed (its mtime), milliseconds since the epoch; null when it was removed. */
      changedAt: z.nullable(z.number()),
      /** The blob keeping the bytes found in place of a file Tandem could not read, else null. */
      displaced: z.nullable(z.string()),
      /** SHA-256 of the bytes found (null when removed): repeats show another writer fighting (issue 42). */
      found: z.optional(z.nullable(z.string())),
      /** What was found is a file a Tandem wrote (another repository's or install's): no agent to blame. */
      byTandem: z.optional(z.boolean()),
    }),
  /** The session was told of every `wiring.restored` up to this seq (docs/decisions/0046). */
  "wiring.noticed": () => z.object({ upToSeq: z.number() }),
};
