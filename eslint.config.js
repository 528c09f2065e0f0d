// ESLint for the UI (TypeScript + React hooks) and the Node test files (ui/tests, tests/e2e).
// Model output is untrusted: `dangerouslySetInnerHTML` is forbidden everywhere.
import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const noRawHtml = {
  "no-restricted-syntax": [
    "error",
    {
      selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
      message: "Never render HTML: prose from the model is untrusted. Render text nodes instead.",
    },
    {
      selector: "AssignmentExpression[left.property.name=/^(innerHTML|outerHTML)$/]",
      message: "Never write HTML strings into the page; build elements or text nodes.",
    },
    {
      selector: "CallExpression[callee.property.name='insertAdjacentHTML']",
      message: "Never write HTML strings into the page; build elements or text nodes.",
    },
  ],
};

export default tseslint.config(
  { ignores: ["ui/dist/**", "ui/src/bindings.ts", "node_modules/**", "target/**"] },
  js.configs.recommended,
  {
    files: ["ui/**/*.{ts,tsx}"],
    extends: [...tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    rules: {
      ...noRawHtml,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["ui/vite.config.ts", "ui/build/**/*.ts", "ui/tests/**/*.ts"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
    rules: noRawHtml,
  },
  {
    // Functions passed to page.evaluate run in the browser.
    files: ["ui/tests/**/*.mjs", "tests/e2e/**/*.mjs"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
