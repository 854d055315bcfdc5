import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire, wrap } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

export interface Loaded<T> {
  exports: T;
  /** Stores V8's compiled code beside the bundle when there was no usable cache; call once work is done. */
  save(): void;
}

/**
 * Loads a CommonJS bundle the way `require` would, but through V8's code cache
 * (`<file>.<key>.v8cache`, written beside the bundle after the first run, once
 * the functions that run have been compiled; `cacheFile` puts it elsewhere, e.g. beside
 * our bundle for a dependency's file). Compiling the hook bundle was the
 * largest cost left in a hook call on Node 20, which has no compile cache of
 * its own. One cache per `key` (a command, a hook event): a cache holds only the
 * functions its first run compiled, so `sub apply` must not live on the cache
 * `sub run` left. V8 verifies the cache against the source and its own version
 * and flags; a rejected or missing cache just means a normal compile.
 */
export function loadWithCodeCache<T>(
  file: string,
  key: string,
  cacheFile = `${file}.${key}.v8cache`,
): Loaded<T> {
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  const script = new Script(wrap(readFileSync(file, "utf8")), { filename: file, cachedData: cached });
  const mod = { exports: {} as T };
  const fn = script.runInThisContext() as (
    e: unknown,
    r: NodeJS.Require,
    m: unknown,
    f: string,
    d: string,
  ) => void;
  fn.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  return {
    exports: mod.exports,
    save() {
      if (cached && !script.cachedDataRejected) return;
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // A read-only install simply runs without the cache.
      }
    },
  };
}
