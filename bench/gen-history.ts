// The generator `bench/history.mjs` bundles and runs: `node gen.cjs STATE_DIR [SESSIONS]` appends a
// generated year (test/helpers/year-gen.ts) to the store in STATE_DIR through its own append path.
import { join } from "node:path";
import { openDb } from "../src/store/db.js";
import { generateHistory, yearShape } from "../test/helpers/year-gen.js";

const [stateDir, sessions] = process.argv.slice(2);
if (!stateDir) throw new Error("usage: gen-history STATE_DIR [SESSIONS]");
const db = openDb(stateDir);
// A generator may lose its work in a crash: it only has to be fast.
db.pragma("synchronous = OFF");
const shape = yearShape();
if (sessions) shape.sessions = Number(sessions);
const started = Date.now();
const made = generateHistory(db, join(stateDir, "blobs"), shape);
db.close();
process.stdout.write(
  `${JSON.stringify({ events: made.events, sessions: made.sessions.length, blobBytes: made.blobBytes, ms: Date.now() - started })}\n`,
);
