import { CLIENTS } from "../clients/index.js";
import type { WiringFile } from "../clients/types.js";
import { PROJECT_CONFIG } from "./root.js";

/**
 * The project's wiring files, relative to a project top: each client's (ClientSpec.wiring, in its
 * folder), then Tandem's config. Derived here, above the registry, so the pure wiring guard in
 * core/ is handed the table as data and imports nothing but core (issue 39).
 */
export const PROJECT_WIRING: readonly WiringFile[] = [
  ...Object.values(CLIENTS).flatMap((c) => c.wiring),
  { file: PROJECT_CONFIG, what: "Tandem's project configuration" },
];
