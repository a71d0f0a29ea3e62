/** `?` to `$n`: every place a `?` is not a placeholder, and the cache answering the same text. */
import { describe, expect, it } from "vitest";
import { postgresPlaceholders } from "./placeholders";
import { testEngine } from "../engines-test-support";

describe.skipIf(testEngine() === "postgres")("postgresPlaceholders (once, in the sqlite project: a function of SQL text, no store)", () => {
  it.each([
    ["SELECT 1", "SELECT 1"],
    ["SELECT * FROM t WHERE a = ? AND b IN (?, ?)", "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)"],
    ["SELECT '?' AS q, ? AS v", "SELECT '?' AS q, $1 AS v"],
    ["SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"],
    ["SELECT E'\\'?', ?", "SELECT E'\\'?', $1"],
    ["SELECT e'a\\\\', ?", "SELECT e'a\\\\', $1"],
    ["SELECT 'a\\', ?", "SELECT 'a\\', $1"],
    ['SELECT "odd?name" FROM t WHERE x = ?', 'SELECT "odd?name" FROM t WHERE x = $1'],
    ["SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2"],
    ["SELECT /* a /* nested? */ still? */ ?", "SELECT /* a /* nested? */ still? */ $1"],
    ["SELECT $$ ? $$, ?", "SELECT $$ ? $$, $1"],
    ["SELECT $tag$ ? $$ ? $tag$, ?", "SELECT $tag$ ? $$ ? $tag$, $1"],
    ["SELECT a$b, ?", "SELECT a$b, $1"],
    ["SELECT 'unterminated ?", "SELECT 'unterminated ?"],
    ["UPDATE t SET a=?,b=? WHERE c=?", "UPDATE t SET a=$1,b=$2 WHERE c=$3"],
  ])("%s", (sql, expected) => {
    expect(postgresPlaceholders(sql)).toBe(expected);
    expect(postgresPlaceholders(sql)).toBe(expected);
  });
});
