/**
 * OpenJD `<CombinationExpr>` (spec §3.4.3): how a step's task parameters combine into tasks.
 * `A * B` is a Cartesian product (left outermost), `(A, B)` walks its members in lock-step.
 */

export type CombinationNode = { kind: "name"; name: string; offset: number } | { kind: "product"; factors: CombinationNode[] } | { kind: "association"; members: CombinationNode[] };

export type CombinationParseResult = { ok: true; node: CombinationNode } | { ok: false; message: string; offset: number };

export const MAX_COMBINATION_LENGTH = 1280;

export function parseCombination(text: string): CombinationParseResult {
  try {
    return { ok: true, node: new CombinationParser(text).parse() };
  } catch (error) {
    if (error instanceof CombinationSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    throw error;
  }
}

/** Every problem with using `node` for these parameters, as sentences; empty when it is fine. */
export function checkCombination(node: CombinationNode, parameterNames: readonly string[], chunkedParameter?: string): string[] {
  const problems: string[] = [];
  const defined = new Set(parameterNames);
  const uses = new Map<string, number>();
  for (const name of namesIn(node)) uses.set(name, (uses.get(name) ?? 0) + 1);
  for (const [name, count] of uses) {
    if (!defined.has(name)) {
      const known = parameterNames.length > 0 ? parameterNames.join(", ") : "none";
      problems.push(`'${name}' in the combination is not a task parameter of this step (defined: ${known})`);
    } else if (count > 1) {
      problems.push(`'${name}' appears ${count} times in the combination; each parameter must appear exactly once`);
    }
  }
  for (const name of parameterNames) {
    if (!uses.has(name)) {
      problems.push(`parameter '${name}' is missing from the combination; each parameter must appear exactly once`);
    }
  }
  if (chunkedParameter !== undefined && namesInAssociations(node).includes(chunkedParameter)) {
    problems.push(`CHUNK[INT] parameter '${chunkedParameter}' cannot be inside an association '( , )'; combine it with '*' instead`);
  }
  return problems;
}

/** The combination used when a step gives none: a product in definition order. */
export function defaultCombination(parameterNames: readonly string[]): CombinationNode {
  // Offsets point into the text this node formats to, so messages about it still make sense.
  let offset = 0;
  const factors = parameterNames.map((name): CombinationNode => {
    const node: CombinationNode = { kind: "name", name, offset };
    offset += name.length + 3;
    return node;
  });
  return factors.length === 1 ? factors[0]! : { kind: "product", factors };
}

/** Names in written order, repeats included (so callers can spot them). */
export function namesIn(node: CombinationNode): string[] {
  switch (node.kind) {
    case "name":
      return [node.name];
    case "product":
      return node.factors.flatMap(namesIn);
    case "association":
      return node.members.flatMap(namesIn);
  }
}

/** Normalized text of a node, e.g. `A * (B, C)`; used in messages. */
export function formatCombination(node: CombinationNode): string {
  switch (node.kind) {
    case "name":
      return node.name;
    case "product":
      return node.factors.map(formatCombination).join(" * ");
    case "association":
      return `(${node.members.map(formatCombination).join(", ")})`;
  }
}

function namesInAssociations(node: CombinationNode): string[] {
  switch (node.kind) {
    case "name":
      return [];
    case "product":
      return node.factors.flatMap(namesInAssociations);
    case "association":
      return namesIn(node);
  }
}

class CombinationSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

type TokenKind = "name" | "*" | "(" | ")" | ",";

interface Token {
  kind: TokenKind;
  text: string;
  offset: number;
}

class CombinationParser {
  private readonly tokens: Token[];
  private index = 0;

  constructor(private readonly text: string) {
    this.tokens = tokenize(text);
  }

  parse(): CombinationNode {
    const node = this.product();
    const token = this.peek();
    if (token) this.unexpectedAfterOperand(token, false);
    return node;
  }

  private product(): CombinationNode {
    const factors = [this.element()];
    while (this.peek()?.kind === "*") {
      this.index++;
      factors.push(this.element());
    }
    return factors.length === 1 ? factors[0]! : { kind: "product", factors };
  }

  private element(): CombinationNode {
    const token = this.peek();
    if (!token) {
      const end = this.text.length;
      throw new CombinationSyntaxError(`expected a parameter name or '(' at offset ${end} but the expression ended`, end);
    }
    if (token.kind === "name") {
      this.index++;
      return { kind: "name", name: token.text, offset: token.offset };
    }
    if (token.kind !== "(") {
      throw new CombinationSyntaxError(`unexpected '${token.text}' at offset ${token.offset}; expected a parameter name or '('`, token.offset);
    }
    this.index++;
    const members = [this.product()];
    for (;;) {
      const next = this.peek();
      if (!next) {
        const end = this.text.length;
        throw new CombinationSyntaxError(`expected ',' or ')' at offset ${end} but the expression ended; the '(' at offset ${token.offset} is not closed`, end);
      }
      if (next.kind === ")") break;
      if (next.kind !== ",") this.unexpectedAfterOperand(next, true);
      this.index++;
      members.push(this.product());
    }
    this.index++;
    if (members.length < 2) {
      throw new CombinationSyntaxError(`the association at offset ${token.offset} has one member; an association needs at least two, e.g. (A, B)`, token.offset);
    }
    return { kind: "association", members };
  }

  private unexpectedAfterOperand(token: Token, inParentheses: boolean): never {
    const expected = inParentheses ? "expected '*', ',' or ')'" : "expected '*' or the end";
    let hint = expected;
    if (token.kind === "," && !inParentheses) hint = "an association needs parentheses, e.g. (A, B)";
    if (token.kind === ")" && !inParentheses) hint = "there is no '(' for it to close";
    if ((token.kind === "name" || token.kind === "(") && !inParentheses) hint = "join parameters with '*'";
    throw new CombinationSyntaxError(`unexpected '${token.text}' at offset ${token.offset}; ${hint}`, token.offset);
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }
}

function tokenize(text: string): Token[] {
  if (text.length > MAX_COMBINATION_LENGTH) {
    throw new CombinationSyntaxError(`the combination is ${text.length} characters long; at most ${MAX_COMBINATION_LENGTH} are allowed`, MAX_COMBINATION_LENGTH);
  }
  if (/^ *$/.test(text)) throw new CombinationSyntaxError("empty combination expression", 0);
  const tokens: Token[] = [];
  const pattern = /[A-Za-z0-9_]+|[*(),]| +|[^]/gu;
  for (const match of text.matchAll(pattern)) {
    const word = match[0];
    const offset = match.index;
    if (word.startsWith(" ")) continue;
    if (/^[*(),]$/.test(word)) tokens.push({ kind: word as TokenKind, text: word, offset });
    else if (/^[0-9]/.test(word)) {
      throw new CombinationSyntaxError(`'${word}' at offset ${offset} is not a parameter name: names cannot start with a digit`, offset);
    } else if (/^[A-Za-z_]/.test(word)) tokens.push({ kind: "name", text: word, offset });
    else {
      throw new CombinationSyntaxError(`character ${JSON.stringify(word)} at offset ${offset} is not allowed; a combination uses parameter names, spaces, '*', '(', ')' and ','`, offset);
    }
  }
  return tokens;
}
