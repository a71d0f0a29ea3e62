import { describe, expect, it } from "vitest";
import { parseSource, SOURCE_LIMITS } from "./parse-source";
import { getEntry, nodeFromValue, nodeToValue, type ObjectNode } from "./source-node";

const errorsOf = (text: string, format: "yaml" | "json" = "yaml") => parseSource(text, format).errors.map((e) => `${e.line}:${e.column} ${e.message}`);

describe("parseSource limits and aliases", () => {
  it.each([
    [
      "duplicate keys, each located",
      "a: 1\nb: 2\na: 3\n'a': 4\n",
      ['3:1 not valid YAML: the key "a" appears more than once in its mapping', '4:1 not valid YAML: the key "a" appears more than once in its mapping'],
    ],
    ["an alias inside its own anchor", "a: &a [1, *a]\n", ["1:11 the alias *a refers to a node that contains it"]],
    ["an unresolved alias", "a: *nowhere\n", ["1:4 unresolved alias *nowhere"]],
    ["two documents", "a: 1\n---\nb: 2\n", ["2:1 the text holds more than one document"]],
    ["an empty document", "# only a comment\n", ["1:1 the document is empty"]],
  ])("%s", (_name, text, expected) => {
    expect(errorsOf(text)).toEqual(expected);
  });

  // Nested 100,000 deep, the `yaml` composer would overflow the stack: the parse stops early.
  it.each([
    ["YAML flow", `a: ${"[".repeat(100_000)}`, "yaml"],
    ["YAML block", `${"- ".repeat(100_000)}x`, "yaml"],
    ["JSON", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, "json"],
  ] as const)("stops at nesting past the limit: %s", (_name, text, format) => {
    expect(errorsOf(text, format)).toEqual([expect.stringMatching(new RegExp(`^1:\\d{3} the document is nested deeper than ${SOURCE_LIMITS.maxDepth} levels$`))]);
  });

  it("accepts values down to depth maxDepth (the root is depth 0)", () => {
    const nested = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
    expect(errorsOf(nested(SOURCE_LIMITS.maxDepth), "json")).toEqual([]);
    expect(errorsOf(nested(SOURCE_LIMITS.maxDepth + 1), "json")).toEqual([`1:${SOURCE_LIMITS.maxDepth + 2} the document is nested deeper than ${SOURCE_LIMITS.maxDepth} levels`]);
  });

  it("expands aliases, each to the last anchor of its name before it", () => {
    const source = parseSource("a: &x 1\nb: &x [2, 3]\nc: *x\nd: [*x, *x]\n", "yaml");
    expect(source.errors).toEqual([]);
    expect(nodeToValue(source.root!)).toEqual({
      a: 1n,
      b: [2n, 3n],
      c: [2n, 3n],
      d: [
        [2n, 3n],
        [2n, 3n],
      ],
    });
  });

  it("refuses an alias bomb at the first alias over the value budget", () => {
    const levels = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      levels.push(
        `l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(", ")}]`,
      );
    const errors = errorsOf(levels.join("\n"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^\\d+:\\d+ the document has more than ${SOURCE_LIMITS.maxNodes} values`));
  });

  it("refuses texts with too many tokens or characters", () => {
    expect(errorsOf("- 1\n".repeat(SOURCE_LIMITS.maxTokens / 3))[0]).toMatch(/too large: it has more than/);
    expect(errorsOf("x".repeat(SOURCE_LIMITS.maxTextLength + 1))).toEqual([
      `1:1 the document is ${SOURCE_LIMITS.maxTextLength + 1} characters long; at most ${SOURCE_LIMITS.maxTextLength} are accepted`,
    ]);
  });
});

describe("getEntry on large mappings", () => {
  it("finds keys through its index, the first of repeated keys winning", () => {
    const node = nodeFromValue(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]))) as ObjectNode;
    node.entries.push({ key: "k3", keySpan: null, value: nodeFromValue("second") });
    expect(nodeToValue(getEntry(node, "k3")!.value)).toBe(3n);
    expect(nodeToValue(getEntry(node, "k39")!.value)).toBe(39n);
    expect(getEntry(node, "missing")).toBeUndefined();
  });
});
