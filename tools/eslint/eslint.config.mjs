// ESLint for the pages' scripts (static/js): `make lint` runs it from the project's root.
// The recommended rules, for browser ES modules; no bundler, so the files run as written.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ...js.configs.recommended,
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
];
