/**
 * Which owned paths of which repository the unreached-work facts are asked about: the clean owned
 * paths of each examined repository, with the session's stash entries that left its stash.
 */
import type { CreatedStash, GitFacts, UnreachedFacts } from "../core/finalization/verdict.js";
import { relativeKey } from "../core/paths/lexical.js";
import { type GitAuthority, msg } from "./run-git.js";
import { unreachedFacts } from "./unreached-facts.js";

export async function gatherUnreached(
  facts: Omit<GitFacts, "stashes">,
  created: readonly CreatedStash[],
  stashes: GitFacts["stashes"],
  since: number | null,
  may: GitAuthority,
): Promise<UnreachedFacts[]> {
  // Without a start time there is no session history to read the reflog against.
  if (since === null) return [];
  const owned = new Map<string, string[]>();
  for (const [path, repo] of Object.entries(facts.pathRepo)) {
    if ("top" in repo) owned.set(repo.top, [...(owned.get(repo.top) ?? []), path]);
  }
  const asked = facts.repos.flatMap((repo) => {
    const paths = owned.get(repo.top);
    if (!repo.ok || !paths) return [];
    const dirty = new Set(repo.dirty.map((d) => d.path));
    const rels = paths.map((p) => relativeKey(repo.top, p)).filter((r) => !dirty.has(r));
    const stash = stashes.find((s) => s.repo === repo.top);
    // A stash that could not be read is already unverifiable: none of its entries counts as gone.
    const present = stash && "present" in stash ? new Set(stash.present) : null;
    const goneStashes = present
      ? created.filter((c) => c.repo === repo.top && !present.has(c.sha)).map((c) => c.sha)
      : [];
    const query = { top: repo.top, head: repo.sync.head, rels, since, goneStashes };
    return [
      unreachedFacts(query, may).catch(
        (err): UnreachedFacts => ({
          repo: repo.top,
          orphans: [],
          head: {},
          error: `whether owned work was left behind could not be read: ${msg(err)}`,
        }),
      ),
    ];
  });
  const found = await Promise.all(asked);
  return found.filter((f): f is UnreachedFacts => f !== null);
}
