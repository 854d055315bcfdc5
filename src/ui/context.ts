import type { LoadedConfig } from "../config/load.js";

/** What the board's readers need to know about the project; fixed for the server's life. */
export interface UiContext {
  root: string;
  /** The repository top, to ask git which files are left work (decision 0029). */
  repoTop?: string | null;
  stateDir: string;
  loaded: LoadedConfig;
  env: Readonly<Record<string, string | undefined>>;
}
