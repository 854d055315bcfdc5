import { procInfo } from "../sessions/proc.js";

/**
 * A thin-client request's id: the client's pid and that process's start stamp, so the server and
 * the Node path the client falls back to name the same request, and a recycled pid never does.
 * Null when the process cannot be seen (then the request cannot be told apart and is not deduplicated).
 */
export function requestIdOf(pid: number): string | null {
  const info = procInfo(pid);
  return info ? `${pid}@${info.start}` : null;
}
