declare const __TANDEM_VERSION__: string | undefined;

/** Injected by the bundler; "dev" when running from source (tests). */
export const VERSION: string = typeof __TANDEM_VERSION__ === "string" ? __TANDEM_VERSION__ : "dev";

declare const __TANDEM_BUILD__: string | undefined;

/**
 * Names one build of the bundles and the thin client made with them (scripts/build.mjs): a
 * server answers only clients of its own build, so a rebuilt or upgraded install restarts it.
 */
export const BUILD: string = typeof __TANDEM_BUILD__ === "string" ? __TANDEM_BUILD__ : "dev";
