/** The bytes of orphan blob `i` in the gc race test: the test and its worker processes store the same ones. */
export const orphanBytes = (i: number): Buffer => Buffer.from(`bytes of orphan ${i}\n`.repeat(64));
