/**
 * Reading mvdan-sh's syntax tree. Each field read on a GopherJS node copies the
 * value out of Go (a statement's `Cmd` costs ~50 µs, a call's `Args` ~80 µs), and
 * the walker reads some nodes more than once (a loop body per item and per pass,
 * a function per call). So each node's fields, and what is worked out from them,
 * are kept for the walk of one command. Nodes are keyed by the Go object under the
 * wrapper: every read hands out a new wrapper around the same object.
 */
import type { ShNode, ShSyntax } from "./syntax.js";

export class Tree {
  private readonly kept = new WeakMap<object, Map<string, unknown>>();

  constructor(readonly syntax: ShSyntax) {}

  /** `compute()` for this node, worked out once. */
  memo<T>(node: ShNode, key: string, compute: () => T): T {
    const id = identity(node);
    let values = this.kept.get(id);
    if (values === undefined) {
      values = new Map();
      this.kept.set(id, values);
    }
    if (values.has(key)) return values.get(key) as T;
    const value = compute();
    values.set(key, value);
    return value;
  }

  /** `node[field]`, read out of Go once. */
  read<N extends ShNode, K extends keyof N & string>(node: N, field: K): N[K] {
    return this.memo(node, field, () => node[field]);
  }

  type(node: ShNode): string {
    return this.memo(node, "$type", () => this.syntax.NodeType(node));
  }
}

function identity(node: ShNode): object {
  return (node as { __internal_object__?: object }).__internal_object__ ?? node;
}
