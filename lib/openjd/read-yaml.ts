/**
 * Reads template text into one `yaml` Document under hard limits. The `yaml` package composes
 * recursively (a document nested 100,000 levels deep overflows the stack) and its lexer and
 * parser take about a microsecond per token, so the text is driven through the lexer and the
 * CST parser one token at a time and abandoned as soon as it nests too deeply or holds too
 * many tokens; only a document within both limits is composed.
 */
import { Composer, Lexer, Parser, type CST, type Document } from "yaml";

export interface ReadLimits {
  /** Nesting depth of collections the converter accepts; the CST check allows a little slack. */
  maxDepth: number;
  /** Lexical tokens (scalars, indicators, spaces, newlines) in the whole text. */
  maxTokens: number;
}

type ReadFailure = { ok: false; message: string; offset: number };
export type ReadResult = { ok: true; doc: Document.Parsed } | ReadFailure;

/**
 * The parser's stack holds the document, every open collection and the token being built.
 * The converter enforces the exact depth; this bound only has to keep composition shallow.
 */
const STACK_SLACK = 4;

export function readYamlDocument(text: string, limits: ReadLimits): ReadResult {
  const cst = readTokens(text, limits);
  if (!cst.ok) return cst;
  // Keys are checked for uniqueness while converting: the `yaml` check compares each key with
  // every earlier one, which takes seconds on a mapping with 20,000 keys.
  const composer = new Composer({ intAsBigInt: true, uniqueKeys: false, prettyErrors: false, strict: true });
  let doc: Document.Parsed | null = null;
  for (const next of composer.compose(cst.tokens, true, text.length)) {
    if (doc !== null) {
      return { ok: false, message: "the text holds more than one document", offset: next.range[0] };
    }
    doc = next;
  }
  if (doc === null) return { ok: false, message: "the document is empty", offset: 0 };
  return { ok: true, doc };
}

function readTokens(text: string, limits: ReadLimits): { ok: true; tokens: CST.Token[] } | ReadFailure {
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  const maxStack = limits.maxDepth + STACK_SLACK;
  let count = 0;
  for (const lexeme of new Lexer().lex(text)) {
    if (++count > limits.maxTokens) {
      return { ok: false, message: `the document is too large: it has more than ${limits.maxTokens} YAML tokens (words, punctuation and line breaks)`, offset: parser.offset };
    }
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > maxStack) {
      return { ok: false, message: `the document is nested deeper than ${limits.maxDepth} levels`, offset: Math.max(0, parser.offset - lexeme.length) };
    }
  }
  for (const token of parser.end()) tokens.push(token);
  return { ok: true, tokens };
}
