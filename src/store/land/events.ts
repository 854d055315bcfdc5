import * as z from "zod/mini";

const sha = () => z.string();

/** `tandem land` (docs/land.md): one `land.started`, then one of the other three. Merged into the ledger's schemas. */
export const LAND_EVENT_SCHEMAS = {
  "land.started": () => z.object({ branch: z.string(), local: sha(), upstream: sha() }),
  /** The remote holds the local work: pushed, or nothing to push (`up-to-date`, `fast-forwarded`). */
  "land.pushed": () =>
    z.object({
      branch: z.string(),
      outcome: z.enum(["pushed", "up-to-date", "fast-forwarded"]),
      from: sha(),
      to: sha(),
      commits: z.number(),
      rebased: z.boolean(),
      attempts: z.number(),
      /** Runs of land.check (absent: none configured). */
      checks: z.optional(z.number()),
      /** Commits the check turned away, left unpushed on top of the local branch. */
      rejected: z.optional(z.array(sha())),
      /** Queued landings this one answered too. */
      waiters: z.optional(z.number()),
    }),
  /**
   * Nothing changed: someone's work was in the way (`held`), land.check failed every commit
   * (`check`, with them), or git/the remote failed (`failed`).
   */
  "land.refused": () =>
    z.object({
      branch: z.nullable(z.string()),
      reason: z.enum(["held", "failed", "check"]),
      paths: z.array(z.object({ path: z.string(), holders: z.array(z.string()) })),
      message: z.optional(z.string()),
      commits: z.optional(z.array(sha())),
    }),
  "land.conflicted": () =>
    z.object({ branch: z.string(), commit: sha(), subject: z.string(), paths: z.array(z.string()) }),
} as const;
