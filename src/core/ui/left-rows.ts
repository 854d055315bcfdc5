/**
 * The board's rows for left work (decision 0029): each file a session left uncommitted when it
 * ended, with its former owner, task and end, and the commands a person pastes to settle it (an
 * agent continues it with adopt, which a person cannot run: decision 0051). Pure, shared by the page and its tests.
 */

import { type Printer, printed } from "../printed.js";
import { formatAge } from "../sessions/liveness.js";
import type { UiLeft } from "./protocol.js";

export interface LeftRow {
  path: string;
  owner: string;
  client: string;
  task: string;
  /** "ended 3m ago", or "last seen 2h ago" for a session that went quiet without ending. */
  when: string;
  commands: { what: string; command: string }[];
}

/** `launcher` is the person's (StateMessage.launcher): the board is read at their terminal. */
export function leftRows(left: readonly UiLeft[], now: number, launcher: string): LeftRow[] {
  const p: Printer = { reader: "person", launcher };
  return left.map((l) => {
    const path = { path: l.path };
    return {
      path: l.path,
      owner: l.owner,
      client: l.client,
      task: l.task ?? "no task declared",
      when: `${l.ended ? "ended" : "last seen"} ${formatAge(now - l.at)} ago`,
      commands: [
        { what: "get its saved bytes back", command: printed(p, "recover", path, "--session", l.owner) },
        { what: "throw it away", command: printed(p, "discard", path, "--yes") },
      ],
    };
  });
}
