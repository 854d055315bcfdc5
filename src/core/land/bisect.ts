/**
 * Batch bisection for `land.check` (docs/decisions/0032): the batch's commits are tried together;
 * when the check fails, the batch is split in halves and each half is tried on top of what already
 * passed, down to single commits, which are rejected. Pure: the shell runs each probe and feeds the
 * verdict back.
 */

interface Group {
  units: number[];
  /** Known to fail on top of what is accepted (its sibling half passed after their union failed). */
  fails: boolean;
  /** The first half of a split: the group right after it is its other half. */
  first?: boolean;
}

export interface BisectState {
  /** Units (indexes into the batch, in order) that passed. */
  accepted: number[];
  rejected: number[];
  pending: Group[];
}

/** Starts on a batch of `count` units whose check, all together, just failed. */
export function startBisect(count: number): BisectState {
  const all = Array.from({ length: count }, (_, i) => i);
  return { accepted: [], rejected: [], pending: count ? [{ units: all, fails: true }] : [] };
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

/**
 * Settles groups whose verdict is already known without a check (a known-failing single unit is
 * rejected, a known-failing larger group is split), then names the next probe: the units to try
 * together, in order. null: done.
 */
export function nextProbe(state: BisectState): { state: BisectState; probe: number[] | null } {
  let s = state;
  for (;;) {
    const [g, ...rest] = s.pending;
    if (!g) return { state: s, probe: null };
    if (!g.fails) return { state: s, probe: sorted([...s.accepted, ...g.units]) };
    if (g.units.length === 1) s = { ...s, rejected: sorted([...s.rejected, ...g.units]), pending: rest };
    else s = { ...s, pending: [...halves(g.units), ...rest] };
  }
}

function halves(units: number[]): Group[] {
  const mid = Math.ceil(units.length / 2);
  return [
    { units: units.slice(0, mid), fails: false, first: true },
    { units: units.slice(mid), fails: false },
  ];
}

/** Takes the verdict on the probe `nextProbe` named (the first pending group on top of the accepted). */
export function recordProbe(state: BisectState, passed: boolean): BisectState {
  const [g, ...rest] = state.pending;
  if (!g) return state;
  if (passed) {
    // The group passed: if it was the first half of a failing union, its sibling is the culprit.
    const [next, ...after] = rest;
    return {
      ...state,
      accepted: sorted([...state.accepted, ...g.units]),
      pending: g.first && next ? [{ ...next, fails: true }, ...after] : rest,
    };
  }
  if (g.units.length === 1)
    return { ...state, rejected: sorted([...state.rejected, ...g.units]), pending: rest };
  return { ...state, pending: [...halves(g.units), ...rest] };
}

/** Runs a bisection to the end with a verdict function; the shell's loop, for callers that can block. */
export function bisectWith(
  count: number,
  passes: (probe: number[]) => boolean,
): { accepted: number[]; rejected: number[]; probes: number } {
  let s = startBisect(count);
  let probes = 0;
  for (;;) {
    const next = nextProbe(s);
    if (!next.probe) return { accepted: next.state.accepted, rejected: next.state.rejected, probes };
    probes++;
    s = recordProbe(next.state, passes(next.probe));
  }
}
