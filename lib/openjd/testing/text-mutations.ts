/**
 * Mutations of template text, below the level of the tree: truncation, flipped characters,
 * shuffled lines and indentation, YAML anchors and aliases (including billion-laughs chains),
 * tags and directives, and the usual ways hand-written JSON goes wrong.
 */
import type { DocumentFormat } from "../parse-source";
import type { Random } from "./random";
import { insertAt } from "./random-values";

export interface TextMutation {
  name: string;
  apply(rng: Random, text: string, format: DocumentFormat): { text: string; format?: DocumentFormat };
}

const SYNTAX = [": ", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "!!str ", "|", ">-", "# ", "%", "@", "`", "'", '"', "\t", "? ", "\n---\n", "\n...\n", "\\", "\n  ", "<<: "];
const TAGS = ["!!binary ", "!!timestamp ", "!!set ", "!!omap ", "!custom ", "!!int ", "!!float ", "!!str ", "!!null ", "!!bool ", "!!map ", "!!seq ", "!<tag:yaml.org,2002:str> "];

function lines(text: string): string[] {
  return text.split("\n");
}

/** Lines of the form `key: value` in block YAML, as indexes. */
function keyValueLines(all: readonly string[]): number[] {
  return all.flatMap((line, i) => (/^\s*-?\s*[\w$"']+:\s+\S/.test(line) ? [i] : []));
}

function replaceValue(line: string, value: string): string {
  return line.replace(/^(\s*-?\s*[\w$"']+:\s+).*$/, `$1${value}`);
}

function laughs(rng: Random, levels: number): string {
  const width = rng.pick([2, 9, 10]);
  const out = ["lol0: &l0 [lol, lol]"];
  for (let i = 1; i < levels; i++) out.push(`lol${i}: &l${i} [${Array.from({ length: width }, () => `*l${i - 1}`).join(", ")}]`);
  return out.join("\n");
}

export const TEXT_MUTATIONS: readonly TextMutation[] = [
  { name: "truncate", apply: (rng, text) => ({ text: text.slice(0, rng.int(text.length + 1)) }) },
  {
    name: "byte-flip",
    apply: (rng, text) => {
      const chars = [...text];
      for (let i = rng.between(1, 8); i > 0 && chars.length > 0; i--) {
        const at = rng.int(chars.length);
        const code = chars[at]!.codePointAt(0) ?? 0;
        chars[at] = rng.chance(0.7) ? String.fromCodePoint((code ^ (1 << rng.int(8))) & 0x10ffff) : String.fromCharCode(rng.int(256));
      }
      return { text: chars.join("") };
    },
  },
  {
    name: "delete-span",
    apply: (rng, text) => {
      const at = rng.int(text.length + 1);
      return { text: text.slice(0, at) + text.slice(at + rng.between(1, 200)) };
    },
  },
  {
    name: "duplicate-line",
    apply: (rng, text) => {
      const all = lines(text);
      const at = rng.int(all.length);
      all.splice(at, 0, all[at] ?? "");
      return { text: all.join("\n") };
    },
  },
  {
    name: "swap-lines",
    apply: (rng, text) => {
      const all = lines(text);
      const i = rng.int(all.length);
      const j = rng.int(all.length);
      [all[i], all[j]] = [all[j] ?? "", all[i] ?? ""];
      return { text: all.join("\n") };
    },
  },
  { name: "insert-syntax", apply: (rng, text) => ({ text: insertAt(text, rng.int(text.length + 1), rng.pick(SYNTAX)) }) },
  {
    name: "indent-shift",
    apply: (rng, text) => {
      const all = lines(text);
      const at = rng.int(all.length);
      const line = all[at] ?? "";
      all[at] = rng.chance(0.5) ? " ".repeat(rng.between(1, 3)) + line : line.replace(/^ {1,3}/, "");
      return { text: all.join("\n") };
    },
  },
  { name: "line-endings", apply: (rng, text) => ({ text: text.replace(/\n/g, rng.pick(["\r\n", "\r", "\n\n", "\u2028", "\u0085"])) }) },
  { name: "bom", apply: (_rng, text) => ({ text: `\ufeff${text}` }) },
  { name: "tabs", apply: (rng, text) => ({ text: text.replace(/^( {2})+/gm, (m) => (rng.chance(0.3) ? "\t".repeat(m.length / 2) : m)) }) },
  {
    name: "anchors-aliases",
    apply: (rng, text) => {
      const all = lines(text);
      const candidates = keyValueLines(all);
      if (candidates.length < 2) return { text: `${text}\nx: &a [1, 2]\ny: *a\nz: *missing\n`, format: "yaml" };
      const a = rng.pick(candidates);
      const b = rng.pick(candidates);
      const line = all[a]!;
      all[a] = line.replace(/:\s+/, ": &anchor ");
      all[b] = replaceValue(all[b]!, rng.pick(["*anchor", "*anchor", "*undefined", "&anchor *anchor"]));
      return { text: all.join("\n"), format: "yaml" };
    },
  },
  {
    name: "billion-laughs",
    apply: (rng, text) => {
      const levels = rng.pick([4, 9, 12, 30]);
      const block = laughs(rng, levels);
      const all = lines(text);
      const candidates = keyValueLines(all);
      if (candidates.length > 0 && rng.chance(0.5)) {
        const at = rng.pick(candidates);
        all[at] = replaceValue(all[at]!, `*l${levels - 1}`);
      }
      return { text: `${block}\n${all.join("\n")}`, format: "yaml" };
    },
  },
  {
    name: "yaml-tags",
    apply: (rng, text) => {
      const all = lines(text);
      const candidates = keyValueLines(all);
      if (candidates.length === 0) return { text: rng.pick(TAGS) + text };
      const at = rng.pick(candidates);
      all[at] = all[at]!.replace(/:\s+/, `: ${rng.pick(TAGS)}`);
      if (rng.chance(0.2)) all.splice(at, 0, (/^\s*/.exec(all[at]!)?.[0] ?? "") + "<<: {merged: 1}");
      return { text: all.join("\n"), format: "yaml" };
    },
  },
  {
    name: "directives",
    apply: (rng, text) => ({
      text: rng.pick([`%YAML 1.1\n---\n${text}`, `%TAG ! tag:example.com,2000:\n---\n${text}`, `${text}\n---\nsecond: document\n`, `---\n${text}\n...\n`, `%YAML 9.9\n---\n${text}`]),
      format: "yaml",
    }),
  },
  {
    name: "json-variant",
    apply: (rng, text) => {
      const variants: Array<() => string> = [
        () => text.replace(/(\S)(\s*)([}\]])/, "$1,$2$3"),
        () => `// comment\n${text}`,
        () => text.replace(/\n/, "\n/* block */\n"),
        () => text.replace(/"/g, "'"),
        () => text.replace(/: (-?\d[\d.]*)/, rng.pick([": NaN", ": Infinity", ": -Infinity", ": +1", ": 0x1F", ": .5", ": 1.", ": 01"])),
        () => text.replace(/"([\w$]+)":/, "$1:"),
        () => text.replace(/\n(\s*"[\w$]+": [^\n]*,)\n/, "\n$1\n$1\n"),
        () => text.replace(/"([^"\n]*)"/, '"$1\\x41\\u12"'),
        () => `${text}\n{}`,
        () => text.replace(/\s+/g, ""),
      ];
      return { text: rng.pick(variants)(), format: rng.chance(0.8) ? "json" : "yaml" };
    },
  },
];
