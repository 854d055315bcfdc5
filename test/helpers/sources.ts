import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every `.ts` file below `dir`, for the tests that scan the sources for a rule. */
export function tsSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsSources(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}
