import { availableParallelism, loadavg } from "node:os";

/**
 * A hang guard's wait, stretched by how busy the machine is. Tests assert behaviour, never elapsed
 * time, so a wait is only there to end a hang; sized for a quiet machine it would fail a correct
 * program while other jobs share the cores (issue 27 §9). The stretch is the load per core (at least
 * 1, at most 6); TANDEM_TEST_PATIENCE=<factor> fixes it instead.
 */
export function patient(ms: number): number {
  return Math.round(ms * patienceFactor());
}

export function patienceFactor(): number {
  const fixed = Number(process.env.TANDEM_TEST_PATIENCE);
  if (Number.isFinite(fixed) && fixed >= 1) return fixed;
  const perCore = (loadavg()[0] ?? 0) / availableParallelism();
  return Math.min(6, Math.max(1, perCore));
}
