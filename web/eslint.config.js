// ESLint for the web app: TypeScript (type-aware), React hooks, accessibility, and the layout rules of
// STYLE.md as import boundaries (src/architecture.test.ts checks the same rules without ESLint).
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Who may import whom: shared code (components/, lib/, config/) never reaches up; features stay apart. */
const boundaries = [
  {
    target: "./src/components",
    from: ["./src/features", "./src/app"],
    message: "components/ is shared: it must not import a feature or a route module.",
  },
  {
    target: "./src/lib",
    from: ["./src/features", "./src/app", "./src/components"],
    message: "lib/ is the foundation: it must not import features, route modules or components.",
  },
  {
    target: "./src/config",
    from: ["./src/features", "./src/app", "./src/components", "./src/lib"],
    message: "config/ is read by everything and imports nothing of the app.",
  },
  ...features.flatMap((name) => [
    {
      target: `./src/features/${name}`,
      from: "./src/features",
      except: [`./${name}`],
      message: "A feature must not import another feature: move what they share to components/ or lib/.",
    },
    {
      target: `./src/features/${name}`,
      from: "./src/app",
      message: "A feature must not import a route module (app/).",
    },
  ]),
];

export default tseslint.config(
  {
    ignores: ["dist/", "build/", "node_modules/", ".react-router/", "public/mockServiceWorker.js", "bench/node_modules/"],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat["recommended-latest"], jsxA11y.flatConfigs.recommended],
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    plugins: { "import-x": importX },
    settings: {
      // Without the TypeScript extensions and parser, import-x cannot follow .ts files and no-cycle sees nothing.
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "import-x/no-useless-path-segments": "error",
      "import-x/no-restricted-paths": ["error", { zones: boundaries }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // Tests pass async fakes (`async () => null`) where the code under test expects a promise, and
    // assert on mocked methods (`expect(api.refresh)`), which is how Vitest spies are read.
    files: ["**/*.test.{ts,tsx}", "src/testing/**"],
    rules: {
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
);
