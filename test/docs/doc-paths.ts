/** Where a document's paths are rooted: the repository's top folders that hold its sources and docs. */
const REPO_TOPS = new Set(["src", "test", "docs", "bench", "scripts"]);

/**
 * The repository paths a Markdown document claims exist, from its code spans: `src/x.ts`,
 * `test/…`, a path under one of src's rooms (`hooks/read.ts`, `core/git/`), a bare module
 * (`db.ts`: somewhere under src/) or a bare document (`land.md`: in docs/). Anything else in
 * backticks (a command, a run-time file like `.git/tandem/serve.tcp`, `dist/…`) is not a claim.
 * `<name>`, `*` and `{a,b}` stay in the claim as patterns.
 */
export function pathClaims(markdown: string, srcRooms: ReadonlySet<string>): string[] {
  const claims = new Set<string>();
  for (const [, token = ""] of markdown.matchAll(/`([^`\s]+)`/g)) {
    if (!/^[\w*<>{},-][\w.*<>{},-]*(\/[\w.*<>{},-]*)*$/.test(token)) continue;
    const first = token.split("/")[0] ?? "";
    if (token.includes("/")) {
      if (REPO_TOPS.has(first)) claims.add(token);
      else if (srcRooms.has(first)) claims.add(`src/${token}`);
    } else if (token.endsWith(".ts")) claims.add(`src/**/${token}`);
    else if (token.endsWith(".md")) claims.add(`docs/${token}`);
  }
  return [...claims];
}

/** A claim as a pattern over repository paths (folders end in `/`). */
function claimPattern(claim: string): RegExp {
  let re = "";
  for (let i = 0; i < claim.length; i++) {
    const c = claim[i] ?? "";
    if (claim.startsWith("**/", i)) {
      re += "(?:.*/)?";
      i += 2;
    } else if (c === "*") re += "[^/]*";
    else if (c === "<") {
      re += "[^/]+";
      i = claim.indexOf(">", i);
    } else if (c === "{") {
      const end = claim.indexOf("}", i);
      const alternatives = claim.slice(i + 1, end).split(",");
      re += `(?:${alternatives.join("|")})`;
      i = end;
    } else re += c.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  // A room is named without its ending: `core/git` is a folder, `version` a module.
  return new RegExp(`^${re}(?:/|\\.ts)?$`);
}

/** The claims no path of `paths` (repository-relative; folders end in `/`) answers. */
export function missingPaths(claims: readonly string[], paths: readonly string[]): string[] {
  return claims.filter((claim) => {
    const re = claimPattern(claim);
    return !paths.some((p) => re.test(p));
  });
}
