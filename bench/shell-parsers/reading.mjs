// What a parser "reads" in a command, in a shape that does not depend on the parser, so the
// candidates can be compared case by case: every simple command (its words as written, in
// source order) with the redirections of its statement, the redirections of compound
// statements, and the operators (&&, ||, |) in source order. A parse error reads as
// { error } — the extractor then answers opaque (fails closed).

/** A reading from an mvdan/sh tree: mvdan-sh's GopherJS objects or the Go WASM JSON. */
export function readShTree(src, root, shape) {
  const bytes = Buffer.from(src, "utf8");
  const text = (n) => bytes.subarray(shape.pos(n), shape.end(n)).toString("utf8");
  const reading = { commands: [], compoundRedirs: [], ops: [] };
  shape.walk(root, (n) => {
    const type = shape.type(n);
    if (type === "BinaryCmd") reading.ops.push([shape.pos(n.Y), shape.binaryOp(n.Op)]);
    if (type !== "Stmt") return;
    const redirs = n.Redirs.map((r) =>
      redirect(
        shape.redirOp(r.Op),
        r.N ? r.N.Value : null,
        r.Word ? text(r.Word) : null,
        r.Hdoc ? stripEnd(text(r.Hdoc)) : null,
      ),
    );
    const words = n.Cmd ? shWords(n.Cmd, shape, text) : [];
    if (words) reading.commands.push({ at: shape.pos(n.Cmd ?? n), words, redirs });
    else reading.compoundRedirs.push(...redirs);
  });
  return finish(reading);
}

function shWords(cmd, shape, text) {
  const type = shape.type(cmd);
  if (type === "CallExpr") return [...cmd.Assigns.map(text), ...cmd.Args.map(text)];
  if (type === "DeclClause") return [cmd.Variant.Value, ...cmd.Args.map(text)];
  return null;
}

/** mvdan/sh's heredoc node runs to the end of its closing delimiter line; tree-sitter's stops before it. */
function stripEnd(body) {
  return body.slice(0, body.lastIndexOf("\n") + 1);
}

/** One redirection, spelled alike for both tree families: `>&-` as `>&` to `-`, `<<-` bodies untabbed. */
function redirect(op, fd, word, body) {
  if (op === ">&-" || op === "<&-") return { op: op.slice(0, 2), fd, word: "-", body };
  return { op, fd, word, body: op === "<<-" && body !== null ? body.replace(/^\t+/gm, "") : body };
}

const TS_REDIRECTS = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);
const TS_COMMANDS = new Set(["command", "declaration_command", "unset_command"]);

/** A reading from a tree-sitter-bash tree (web-tree-sitter nodes). */
export function readTreeSitter(root) {
  const reading = { commands: [], compoundRedirs: [], ops: [] };
  const visit = (n) => {
    if ((n.type === "list" || n.type === "pipeline") && n.parent) {
      for (const c of n.children)
        if (["&&", "||", "|", "|&"].includes(c.type)) reading.ops.push([c.nextSibling?.startIndex, c.type]);
    }
    if (TS_COMMANDS.has(n.type) || isBareAssignment(n) || isBracketTest(n)) {
      reading.commands.push({ at: n.startIndex, words: tsWords(n), redirs: tsRedirs(n.parent, n) });
    }
    if (n.type === "redirected_statement" && !n.childForFieldName("body")) {
      // Redirections alone (`> f`): a command with no words, as mvdan/sh reads it.
      reading.commands.push({ at: n.startIndex, words: [], redirs: tsRedirs(n, null) });
    } else if (n.type === "redirected_statement" && !TS_COMMANDS.has(n.childForFieldName("body").type)) {
      reading.compoundRedirs.push(...tsRedirs(n, null));
    }
    for (const c of n.children) visit(c);
  };
  visit(root);
  return finish(reading);
}

/** `[ … ]` is a command to mvdan/sh (and bash); tree-sitter parses it as a test expression. */
function isBracketTest(n) {
  return n.type === "test_command" && n.child(0)?.type === "[";
}

const TS_WORDS = new Set([
  "word",
  "string",
  "raw_string",
  "ansi_c_string",
  "simple_expansion",
  "expansion",
  "concatenation",
  "number",
  "test_operator",
  "command_substitution",
  "regex",
]);

function leafWords(n, out = []) {
  if (n.childCount === 0 || TS_WORDS.has(n.type)) out.push(n.text);
  else for (const c of n.children) leafWords(c, out);
  return out;
}

function isBareAssignment(n) {
  return (
    (n.type === "variable_assignment" || n.type === "variable_assignments") &&
    n.parent?.type !== "command" &&
    n.parent?.type !== "declaration_command" &&
    n.parent?.type !== "variable_assignments"
  );
}

function tsWords(n) {
  if (n.type === "variable_assignment") return [n.text];
  if (n.type === "variable_assignments") return n.namedChildren.map((c) => c.text);
  if (n.type === "test_command") return leafWords(n);
  const words = [];
  for (const c of n.children) {
    if (TS_REDIRECTS.has(c.type)) continue;
    if (c.type === "command_name") words.push(c.text);
    else if (n.type !== "command" || c.isNamed) words.push(c.text);
  }
  return words;
}

/** Redirections of a statement: on a redirected_statement, or (bash grammar) inside the command. */
function tsRedirs(stmt, command) {
  const found = [];
  const from = [];
  if (command) from.push(...command.children);
  if (
    stmt?.type === "redirected_statement" &&
    (command === null || stmt.childForFieldName("body")?.id === command.id)
  )
    from.push(...stmt.children);
  for (const r of from) {
    if (!TS_REDIRECTS.has(r.type)) continue;
    const fd = r.childForFieldName("descriptor")?.text ?? null;
    const op = r.children.find((c) => !c.isNamed)?.type ?? null;
    if (r.type === "heredoc_redirect") {
      const body = r.children.find((c) => c.type === "heredoc_body");
      const start = r.children.find((c) => c.type === "heredoc_start");
      found.push(redirect(op, fd, start?.text ?? null, body ? body.text : null));
    } else {
      const dest =
        r.childForFieldName("destination") ??
        r.namedChildren.filter((c) => c.type !== "file_descriptor").at(-1);
      found.push(redirect(op, fd, dest?.text ?? null, null));
    }
  }
  return found;
}

function finish(reading) {
  reading.commands.sort((a, b) => a.at - b.at);
  reading.ops.sort((a, b) => a[0] - b[0]);
  return {
    commands: reading.commands.map(({ words, redirs }) => ({ words, redirs })),
    compoundRedirs: reading.compoundRedirs,
    ops: reading.ops.map(([, op]) => op),
  };
}
