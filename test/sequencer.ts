import { BaseSequencer, type TestSpecification } from "vitest/node";
import { spread } from "./helpers/spread.js";

/**
 * The order files start in (issue 39). Vitest runs its projects one after another, so the clients
 * tier (real clients, mostly waiting on a model's turn or a screen) ran first on all three workers
 * with a core idle, and the system tier (git and process starts, all CPU) ran after it with the
 * cores oversubscribed. Spread through the system files, each client file's waiting overlaps
 * another file's work. Within a tier the order stays Vitest's: the slowest last time first, or
 * the largest file when there is no record.
 */
export default class SpreadSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const of = (name: string) => sorted.filter((f) => f.project.name === name);
    const rest = sorted.filter((f) => f.project.name !== "clients" && f.project.name !== "system");
    return [...spread(of("clients"), of("system")), ...rest];
  }
}
