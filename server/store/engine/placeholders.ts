/**
 * `?` placeholders to PostgreSQL's `$1, $2, …`. A `?` inside a string literal ('…', E'…'), a
 * quoted identifier ("…"), a dollar-quoted string ($$…$$, $tag$…$tag$) or a comment stays as it
 * is. PostgreSQL's jsonb operators `?`, `?|` and `?&` cannot be written here (they would be taken
 * for placeholders): use jsonb_exists(), jsonb_exists_any() and jsonb_exists_all().
 *
 * The translation is cached per SQL text: statements are few and run many times. The cache is
 * bounded in case some caller builds SQL text per call.
 */

const cache = new Map<string, string>();
const CACHE_LIMIT = 5_000;

export function postgresPlaceholders(sql: string): string {
  let translated = cache.get(sql);
  if (translated === undefined) {
    translated = translate(sql);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(sql, translated);
  }
  return translated;
}

const QUESTION = 63;
const SINGLE = 39;
const DOUBLE = 34;
const DASH = 45;
const SLASH = 47;
const STAR = 42;
const DOLLAR = 36;
const BACKSLASH = 92;
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
const IDENTIFIER_CHAR = /[A-Za-z0-9_\u0080-\uffff$]/;

function translate(sql: string): string {
  if (!sql.includes("?")) return sql;
  let out = "";
  let from = 0;
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql.charCodeAt(i);
    if (c === QUESTION) {
      out += `${sql.slice(from, i)}$${++n}`;
      from = ++i;
    } else if (c === SINGLE) {
      // E'…' (and e'…') take backslash escapes: E'it\'s' is one literal.
      const escapes = i > 0 && (sql[i - 1] === "E" || sql[i - 1] === "e") && (i < 2 || !IDENTIFIER_CHAR.test(sql[i - 2]!));
      i = endOfQuoted(sql, i, SINGLE, escapes);
    } else if (c === DOUBLE) {
      i = endOfQuoted(sql, i, DOUBLE, false);
    } else if (c === DASH && sql.charCodeAt(i + 1) === DASH) {
      const eol = sql.indexOf("\n", i);
      i = eol === -1 ? sql.length : eol + 1;
    } else if (c === SLASH && sql.charCodeAt(i + 1) === STAR) {
      i = endOfBlockComment(sql, i);
    } else if (c === DOLLAR && (i === 0 || !IDENTIFIER_CHAR.test(sql[i - 1]!))) {
      DOLLAR_TAG.lastIndex = i;
      const tag = DOLLAR_TAG.exec(sql)?.[0];
      if (tag === undefined) i++;
      else {
        const close = sql.indexOf(tag, i + tag.length);
        i = close === -1 ? sql.length : close + tag.length;
      }
    } else {
      i++;
    }
  }
  return out + sql.slice(from);
}

/** The index after the closing quote of the quoted text opening at `start`; a doubled quote is one quote inside it. */
function endOfQuoted(sql: string, start: number, quote: number, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql.charCodeAt(i);
    if (backslashEscapes && c === BACKSLASH) i += 2;
    else if (c !== quote) i++;
    else if (sql.charCodeAt(i + 1) === quote) i += 2;
    else return i + 1;
  }
  return sql.length;
}

/** PostgreSQL's block comments nest. */
function endOfBlockComment(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql.charCodeAt(i) === SLASH && sql.charCodeAt(i + 1) === STAR) {
      depth++;
      i += 2;
    } else if (sql.charCodeAt(i) === STAR && sql.charCodeAt(i + 1) === SLASH) {
      i += 2;
      if (--depth === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}
