declare const __TANDEM_VERSION__: string | undefined;

/** Injected by the bundler; "dev" when running from source (tests). */
export const VERSION: string = typeof __TANDEM_VERSION__ === "string" ? __TANDEM_VERSION__ : "dev";
