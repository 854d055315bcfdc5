import { execFileSync } from "node:child_process";

/** Tests drive the real bundled binary, so build it once before any test runs. */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
