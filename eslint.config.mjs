// The browser and Node JavaScript of the project, checked by `make test` (`make fix` applies
// the automatic fixes). eslint's recommended rules, for ES modules.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/", "node_modules/", "site/", ".cache/", ".mutate/", "docs/assets/gin/runtime.js"] },
  js.configs.recommended,
  {
    files: ["docs/assets/gin/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["docs/assets/gin/worker.js", "sitegen/sw.js"],
    languageOptions: { globals: { ...globals.worker, ...globals.serviceworker } },
  },
  {
    files: ["**/*.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
