import type { Config } from "../config/schema.js";
import { checkEngine } from "../remote/engine.js";
import type { Finding } from "./finding.js";

/** Which engine carries presence and leases, and for NATS whether the server answers (decision 0063). */
export async function engineFindings(config: Config, repoTop: string | null): Promise<Finding[]> {
  if (!config.remoteEnabled) return [];
  const r = await checkEngine(config, repoTop);
  return [
    {
      level: r.ok ? "ok" : "problem",
      check: "remote engine",
      detail: r.detail,
      ...(r.fix ? { fix: r.fix } : {}),
    },
  ];
}
