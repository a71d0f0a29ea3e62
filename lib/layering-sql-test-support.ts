/**
 * How lib/layering.test.ts finds SQL outside server/store and server/db: SQL text in any case,
 * known by the statement's shape (what `tx.get/all/run` would be handed, or a module constant
 * holding it), named statements (`statement(name, sql)`, the engine's hot-path form), prepared
 * statements on a raw connection (`sqliteOf(store).prepare(…)`), and drizzle (its package or the
 * schema's tables as values). Read with layering-test-support.ts's scan, so comments are no use.
 */
import { type CheckOptions, importsOf, isProductCode, resolveTarget, scan, type SourceFile } from "./layering-test-support";

/** SQL written in capitals, as Loom writes it: the statement's first words suffice, so a fragment joined with `+` is found too. */
const SQL_STATEMENT =
  /^\s*(?:SELECT\b|INSERT\s+(?:OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX)\b|ALTER\s+TABLE\b|DROP\s+(?:TABLE|INDEX)\b|PRAGMA\b|SAVEPOINT\b|RELEASE\s+SAVEPOINT\b|WITH\s+\w+\s+AS\b)/;

/**
 * SQL in any case: the whole shape of a statement, since its first word alone is ordinary English
 * ("Select a file", "Update the pool", "Release notes"). A name is an identifier or a template's
 * hole; after `FROM name` comes the end, a clause keyword, or a bracket or separator.
 */
const NAME = String.raw`(?:[a-z_]|\$\{\})(?:[\w$]|\{\})*(?:\.(?:[a-z_][\w$]*|\*))?`;
const COLUMN = String.raw`(?:\*|\d+|\?|\$\d+|${NAME}(?:\s*\([^()]*\))?)(?:::\w+)?(?:\s+as\s+${NAME})?`;
const CLAUSE = String.raw`(?:where|join|inner|left|cross|natural|order|group|limit|union|on|using|returning)\b`;
const AFTER_TABLE = String.raw`(?:\s*(?:$|[,;)])|\s+\$\{\}|\s+(?:(?:as\s+)?${NAME}\s+)?${CLAUSE})`;
const SQL_SHAPES = [
  String.raw`select\s+(?:distinct\s+)?${COLUMN}(?:\s*,\s*${COLUMN})*\s+from\s*(?:\(|${NAME}${AFTER_TABLE})`,
  String.raw`insert\s+(?:or\s+\w+\s+)?into\s+${NAME}\s*(?:\(|values\b|select\b|default\b|$)`,
  String.raw`update\s+(?:or\s+\w+\s+)?${NAME}\s+set\s+(?:${NAME}\s*=|\$\{\})`,
  String.raw`delete\s+from\s+${NAME}${AFTER_TABLE}`,
  String.raw`create\s+(?:unique\s+)?(?:table|index)\s+(?:if\s+not\s+exists\s+)?${NAME}\s*(?:\(|on\b)`,
  String.raw`(?:alter|drop)\s+(?:table|index)\s+(?:if\s+exists\s+)?${NAME}\s*(?:$|;|add\b|drop\b|rename\b)`,
  String.raw`pragma\s+${NAME}\s*(?:=|\(|$|;)`,
  String.raw`(?:release\s+)?savepoint\s+${NAME}\s*(?:$|;)`,
  String.raw`with\s+(?:recursive\s+)?${NAME}(?:\s*\([^()]*\))?\s+as\s*\(`,
].map((shape) => new RegExp(String.raw`(?:^|[;(])\s*${shape}`, "i"));

export function isSqlText(text: string): boolean {
  return SQL_STATEMENT.test(text) || SQL_SHAPES.some((shape) => shape.test(text));
}

/** How a file outside server/store and server/db touches SQL: prepared or named statements, drizzle (the package or the schema's tables), raw SQL text. */
export function sqlFindings(file: SourceFile, options: CheckOptions): string[] {
  // Server test support (harnesses, fixtures) counts too: only test files themselves may hold SQL.
  const serverSupport = file.path.startsWith("server/") && !/\.(?:test|spec)\.tsx?$|\.test-child\.ts$/.test(file.path);
  if (!(isProductCode(file.path) || serverSupport) || /^server\/(?:store|db)\//.test(file.path)) return [];
  const { code, strings } = scan(file.source);
  const found = new Set<string>();
  // A call with an argument: Next.js's `app.prepare()` (and a bound reference to it) is not SQL.
  if (/\.\s*prepare\b(?!\s*\(\s*\)|\.bind\(\s*app\s*\))/.test(code)) found.add(".prepare(");
  // The engine's named statement (server/store/engine/engine.ts): defining one is the store's, whatever text it is given.
  // Written as a call is (no space before the bracket), so English such as "the statement (…)" in JSX text is not one.
  if (/(?<![\w$.])statement(?:<[^<>()]*>)?\(/.test(code)) found.add("named statement");
  if (/\bsql\s*`/.test(code)) found.add("sql`…`");
  if (/\bdb\s*\.\s*(?:select|selectDistinct|insert|update|delete)\s*\(|\bdb\s*\.\s*query\s*\./.test(code)) found.add("drizzle query");
  // Without the package and the tables as values, no query can be built, whatever the database handle is called.
  for (const ref of importsOf(code)) {
    if (ref.typeOnly) continue;
    const target = resolveTarget(file.path, ref.specifier, options.nodeBuiltins);
    if (target.kind === "package" && target.name === "drizzle-orm") found.add("drizzle-orm import");
    if (target.kind === "file" && /^server\/db\/schema(?:-[\w-]+)?$/.test(target.path)) found.add("drizzle schema import");
  }
  if (strings.some(isSqlText)) found.add("SQL text");
  return [...found];
}
