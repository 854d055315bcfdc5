/**
 * The board's rows for left work (decision 0029): each file a session left uncommitted when it
 * ended, with its former owner, task and end, and the three commands that settle it, spelled as a
 * person pastes them. Pure, shared by the page and its tests.
 */
import { formatAge } from "../sessions/liveness.js";
import { shellQuote } from "../shell/quote.js";
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

export function leftRows(left: readonly UiLeft[], now: number): LeftRow[] {
  return left.map((l) => {
    const path = shellQuote(l.path);
    return {
      path: l.path,
      owner: l.owner,
      client: l.client,
      task: l.task ?? "no task declared",
      when: `${l.ended ? "ended" : "last seen"} ${formatAge(now - l.at)} ago`,
      commands: [
        { what: "continue it (in the agent that takes it over)", command: `tandem adopt ${path}` },
        { what: "get its saved bytes back", command: `tandem recover ${path} --session ${l.owner}` },
        { what: "throw it away (a person)", command: `tandem discard ${path} --yes` },
      ],
    };
  });
}
