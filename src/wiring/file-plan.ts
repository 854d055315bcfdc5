import type { ClientName } from "../clients/index.js";

/** What init or deinit does to one file, as data (planned in ./plan.ts, written by ./apply.ts). */
export type Action = "create" | "update" | "unchanged" | "delete" | "keep" | "refuse";

export interface FilePlan {
  path: string;
  /** `switch`: a client's own settings file that can switch its hooks off (ClientSpec.hookSwitch). */
  kind: "settings" | "git-hook" | "config" | "rules" | "switch";
  client?: ClientName;
  action: Action;
  /** Text to write for create/update. */
  after: string | null;
  /** Git hooks must be executable. */
  executable: boolean;
  /** One human line per difference (what `--check` prints). */
  changes: string[];
  /** What is (or would be) done, in a few words, for the summary. */
  summary: string;
  /** For refuse: what is wrong, starting with the file. */
  reason?: string;
}
