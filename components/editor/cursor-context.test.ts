import { describe, expect, it } from "vitest";
import { cursorContext } from "./cursor-context";

/** `‸` marks the cursor. */
function at(source: string, format: "yaml" | "json" = "yaml") {
  const offset = source.indexOf("‸");
  const text = source.slice(0, offset) + source.slice(offset + 1);
  const { path, position, prefix, existingKeys } = cursorContext(text, offset, format);
  return { path, position, prefix, existingKeys };
}

const STEP = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun:\n        command: echo\n";

describe("cursorContext in YAML", () => {
  it.each([
    ["a root key", "spec‸", { path: [], position: "key", prefix: "spec" }],
    ["a root key after others", "name: J\nst‸", { path: [], position: "key", prefix: "st", existingKeys: ["name"] }],
    ["the version value", "specificationVersion: job‸", { path: ["specificationVersion"], position: "value", prefix: "job" }],
    ["a key in a list item", "steps:\n- name: S\n  scr‸", { path: ["steps", 0], position: "key", prefix: "scr", existingKeys: ["name"] }],
    ["a key on the dash line", "steps:\n- ‸", { path: ["steps", 0], position: "key", prefix: "" }],
    ["a second item", "steps:\n- name: A\n- name: B\n  ‸", { path: ["steps", 1], position: "key", existingKeys: ["name"] }],
    ["a nested action key", STEP + "        ti‸", { path: ["steps", 0, "script", "actions", "onRun"], position: "key", prefix: "ti", existingKeys: ["command"] }],
    ["a value in an indented list", "parameterDefinitions:\n  - name: P\n    type: IN‸", { path: ["parameterDefinitions", 0, "type"], position: "value", prefix: "IN" }],
    ["a plain list item", "extensions:\n- EX‸", { path: ["extensions", 0], position: "key", prefix: "EX" }],
    ["a flow list item", "extensions: [TASK_CHUNKING, EX‸", { path: ["extensions", 1], position: "value", prefix: "EX" }],
    ["a flow mapping value", "parameterDefinitions:\n- {name: P, type: IN‸", { path: ["parameterDefinitions", 0, "type"], position: "value", prefix: "IN" }],
    ["a flow mapping key", "parameterDefinitions:\n- {name: P, ty‸", { path: ["parameterDefinitions", 0], position: "key", prefix: "ty", existingKeys: ["name"] }],
    [
      "a key after a block scalar",
      "steps:\n- name: S\n  script:\n    embeddedFiles:\n    - name: F\n      data: |\n        a: b\n        c: d\n      run‸",
      { path: ["steps", 0, "script", "embeddedFiles", 0], position: "key", prefix: "run", existingKeys: ["name", "data"] },
    ],
    ["a dedent back to the root", STEP + "para‸", { path: [], position: "key", prefix: "para", existingKeys: ["specificationVersion", "name", "steps"] }],
  ])("%s", (_label, source, expected) => {
    expect(at(source)).toMatchObject(expected);
  });
});

describe("cursorContext in JSON", () => {
  it.each([
    ["a root key being typed", '{"spec‸', { path: [], position: "key", prefix: "spec" }],
    ["a root key after a value", '{"name": "J", "‸', { path: [], position: "key", prefix: "", existingKeys: ["name"] }],
    ["a string value", '{"specificationVersion": "job‸', { path: ["specificationVersion"], position: "value", prefix: "job" }],
    ["a key inside a list item", '{"steps": [{"name": "A"}, {"name": "B", "sc‸', { path: ["steps", 1], position: "key", prefix: "sc", existingKeys: ["name"] }],
    ["a bare value", '{"runnable": tr‸', { path: ["runnable"], position: "value", prefix: "tr" }],
    ["a list item", '{"extensions": ["EXPR", "TA‸', { path: ["extensions", 1], position: "value", prefix: "TA" }],
    ["after a closed object", '{"a": {"b": 1}, "‸', { path: [], position: "key", existingKeys: ["a"] }],
    ["a string with an escaped quote", '{"name": "a\\"b", "‸', { path: [], position: "key", existingKeys: ["name"] }],
  ])("%s", (_label, source, expected) => {
    expect(at(source, "json")).toMatchObject(expected);
  });
});
