import { existsSync } from "node:fs";
import { join } from "node:path";

declare const __TANDEM_VERSION__: string | undefined;

/** Injected by the bundler; "dev" when running from source (tests). */
export const VERSION: string = typeof __TANDEM_VERSION__ === "string" ? __TANDEM_VERSION__ : "dev";

declare const __TANDEM_BUILD__: string | undefined;

/**
 * Names one build of the bundles and the thin client made with them (scripts/build.mjs): a
 * server answers only clients of its own build, so a rebuilt or upgraded install restarts it.
 */
export const BUILD: string = typeof __TANDEM_BUILD__ === "string" ? __TANDEM_BUILD__ : "dev";

/**
 * The `tandem` program this code runs in, when it runs from the bundle; tests importing sources
 * have none. Here, below the features, because the resident server and the remote's background
 * round both start it (docs/decisions/0037).
 */
export function bundledEntry(): string | null {
  if (typeof __dirname !== "string") return null;
  const entry = join(__dirname, "tandem.cjs");
  return existsSync(entry) ? entry : null;
}
