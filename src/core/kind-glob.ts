/**
 * Which event kinds an `--kind` pattern selects. `*` matches any run of
 * characters (`claim.*`, `sub*`); a pattern that selects no known kind is
 * an error rather than an empty listing, which would read as "nothing happened".
 */
export type KindSelection = { ok: true; kinds: string[] } | { ok: false; message: string };

function globRegex(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`);
}

export function selectKinds(pattern: string, known: readonly string[]): KindSelection {
  const re = globRegex(pattern);
  const kinds = known.filter((k) => re.test(k));
  if (kinds.length > 0) return { ok: true, kinds };
  const families = [...new Set(known.map((k) => k.split(".")[0]))].map((f) => `${f}.*`);
  return {
    ok: false,
    message: `--kind ${pattern} matches no event kind; use one of ${[...known].sort().join(", ")}, or a family such as ${families.slice(0, 3).join(", ")}.`,
  };
}
