import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The SQL boundary as a type (issue 39, decision 0067): outside src/store/ a `Db` has no
 * `prepare`, and a snapshot's `ReadTx` is not a `WriteTx`. Each case plants a file in a copy of
 * src/ and compiles it with the repository's compiler options; a control case compiles clean, so
 * the failures are the planted lines' and not the copy's.
 */
const ROOT = join(import.meta.dirname, "..", "..");

const PLANTED: Record<string, string> = {
  "hooks/breach-prepare.ts": `import type { Db } from "../store/db.js";
export const leak = (db: Db): unknown => db.prepare("SELECT 1").get();
`,
  "hooks/breach-pragma.ts": `import type { Db } from "../store/db.js";
export const leak = (db: Db): unknown => db.pragma("user_version");
`,
  "hooks/breach-assign.ts": `import type Database from "better-sqlite3";
import type { Db } from "../store/db.js";
export const leak = (db: Db): Database.Database => db;
`,
  "hooks/breach-append.ts": `import type { Db } from "../store/db.js";
import { append } from "../store/ledger/append.js";
export const outside = (db: Db): unknown => append(db, { kind: "task.set", session: null, data: { text: "x" } });
`,
  "hooks/allowed.ts": `import type { Db } from "../store/db.js";
import { append, readSnapshot, write } from "../store/ledger/append.js";
export function done(db: Db): void {
  write(db, (tx) => append(tx, { kind: "task.set", session: null, data: { text: "x" } }));
  readSnapshot(db, () => undefined);
  if (db.open && !db.inTransaction) db.close();
}
`,
  "store/breach-read-writes.ts": `import type { Db } from "./db.js";
import { readSnapshot } from "./ledger/append.js";
import { project, type StoredEvent } from "./ledger/projections.js";
export const leak = (db: Db, ev: StoredEvent): void => readSnapshot(db, (tx) => project(tx, ev));
`,
  "store/allowed-write.ts": `import type { Db } from "./db.js";
import { write } from "./ledger/append.js";
import { project, type StoredEvent } from "./ledger/projections.js";
export const fine = (db: Db, ev: StoredEvent): void => write(db, (tx) => project(tx, ev));
`,
};

let dir = "";
const errors = new Map<string, string[]>();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tandem-store-types-"));
  cpSync(join(ROOT, "src"), join(dir, "src"), { recursive: true });
  // The copy resolves better-sqlite3, zod and @types/node, and is ESM, as the repository is.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
  const roots = Object.entries(PLANTED).map(([rel, text]) => {
    const file = join(dir, "src", rel);
    writeFileSync(file, text);
    return file;
  });
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("tsconfig.json did not parse");
  const program = ts.createProgram(roots, {
    ...config.options,
    typeRoots: [join(dir, "node_modules/@types")],
  });
  for (const [i, rel] of Object.keys(PLANTED).entries()) {
    const source = program.getSourceFile(roots[i] as string);
    const found = ts.getPreEmitDiagnostics(program, source);
    errors.set(
      rel,
      found.map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`),
    );
  }
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the store's handle is opaque outside src/store/ (decision 0067)", () => {
  it.each<[string, RegExp]>([
    ["hooks/breach-prepare.ts", /TS2339 Property 'prepare' does not exist on type 'Db'/],
    ["hooks/breach-pragma.ts", /TS2339 Property 'pragma' does not exist on type 'Db'/],
    ["hooks/breach-assign.ts", /TS2740 Type 'Db' is missing the following properties/],
    [
      "hooks/breach-append.ts",
      /TS2345 Argument of type 'Db' is not assignable to parameter of type 'WriteTx'/,
    ],
    ["store/breach-read-writes.ts", /TS2345 Argument of type 'ReadTx' is not assignable to .*'WriteTx'/],
  ])("%s does not compile", (rel, want) => {
    expect(errors.get(rel)).toEqual([expect.stringMatching(want)]);
  });

  it.each(["hooks/allowed.ts", "store/allowed-write.ts"])("%s compiles", (rel) => {
    expect(errors.get(rel)).toEqual([]);
  });
});
