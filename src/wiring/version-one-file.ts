import type { ClientFileFormat } from "./client-file.js";
import type { Layout } from "./reconcile.js";
import { isEmptyObject } from "./settings-json.js";

/**
 * A hook file of the shape `{version: 1, hooks: {event: [entry…]}}` (Cursor's and Copilot's): written
 * fresh with `version: 1`, refused when it names another version, given the version when it lacks one.
 */
export function versionOneFormat(layout: Layout): ClientFileFormat {
  return {
    layout,
    fresh: (hooks) => ({ version: 1, hooks }),
    refuse: (doc) =>
      doc.version === undefined || doc.version === 1
        ? null
        : `"version" is ${JSON.stringify(doc.version)}, but Tandem writes version 1 hooks; add them by hand`,
    topLevel: (doc) =>
      doc.version === undefined
        ? {
            ops: [{ op: "set", path: ["version"], value: 1 }],
            changes: [{ event: "version", kind: "add", detail: "version missing" }],
          }
        : { ops: [], changes: [] },
    isSkeleton: (doc) =>
      Object.keys(doc).every((k) => k === "version" || k === "hooks") &&
      (doc.version === undefined || doc.version === 1) &&
      (doc.hooks === undefined || isEmptyObject(doc.hooks)),
  };
}
