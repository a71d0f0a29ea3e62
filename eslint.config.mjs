/**
 * Lint rules Loom keeps by itself (`npm run lint`). Untyped rules only: a type-aware run
 * (no-floating-promises and friends) costs minutes per pass on this tree, and `tsc --noEmit`
 * already checks the types. Import boundaries are not here: `lib/layering.test.ts` checks the
 * DESIGN layout table with a plain reading of the imports, which also covers files ESLint skips.
 * Formatting is Prettier's (`.prettierrc.json`); nothing here is about layout.
 */
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores([".next/", ".next-*/", "node_modules/", "data/", "test-results/", "playwright-report/", "bench/results/", "drizzle/", "next-env.d.ts"]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Loose equality hides the number-versus-string mix-ups that OpenJD values invite; `== null` stays as the one idiom.
      eqeqeq: ["error", "always", { null: "ignore" }],
      // A leading underscore says "dropped on purpose" (`const { secret: _secret, ...rest } = row`, an unused callback argument).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // An import used only as a type says so, so the bundler drops it: what lets app/ and components/ name server/ types (layering.test.ts).
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      // The two classic rules catch real bugs (a hook called conditionally, an effect reading a stale value); a warning fails `lint` too.
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // Of the React Compiler's checks, the ones that find mistakes in any React code.
      "react-hooks/static-components": "error",
      "react-hooks/use-memo": "error",
      "react-hooks/immutability": "error",
      "react-hooks/globals": "error",
      "react-hooks/set-state-in-render": "error",
      "react-hooks/error-boundaries": "error",
      // Left out: `refs`, `purity`, `set-state-in-effect` and `incompatible-library` judge code by
      // what the React Compiler can memoize, and Loom does not run it. Here they flagged a ref
      // passed down in JSX, refs read inside event callbacks, the root Server Component stamping
      // its render time, and effects that sync with Monaco and with the clock after hydration.
    },
  },
  {
    // lib/ is pure and browser-safe, and app/ and components/ run in the browser too: a Node global there breaks the page or hides a server dependency.
    // Their tests (and test support) run in Node and may use them; server code takes what it needs as options (only server/env.ts reads process.env).
    files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}", "**/*-test-support.ts", "lib/openjd/testing/**"],
    rules: {
      "no-restricted-globals": [
        "error",
        ...["Buffer", "process", "__dirname", "__filename", "require", "global"].map((name) => ({ name, message: `${name} is Node's: lib/, app/ and components/ also run in the browser.` })),
      ],
    },
  },
  {
    // Playwright's fixture functions take `{}` when they need no other fixture.
    files: ["e2e/**/*.ts"],
    rules: { "no-empty-pattern": "off" },
  },
);
