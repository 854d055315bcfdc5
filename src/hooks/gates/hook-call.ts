/** A command that calls `tandem hook` speaks for a session it is not: refused before it runs. */
import { refusal } from "../../core/rules/catalog.js";
import { agentCmd } from "../context.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "hook-call",
  order: 10,
  rules: ["hook-call"],
  reads: ["found"],
  run: (ctx, { found }) =>
    found.tandemHook
      ? {
          verdict: refusal("hook-call", { agentCmd: agentCmd(ctx) }),
          refused: [{ path: "tandem hook", reason: "hook-call", holder: null }],
        }
      : null,
});
