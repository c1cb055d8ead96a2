// eslint's rules for the page (web/), its browser tests (tests/web/), these checks and the
// JavaScript client (clients/js/): the recommended set and a few more that catch real mistakes,
// warnings counted as errors (the check runs it with --max-warnings 0). Run from the root:
//   node tools/web-check/node_modules/eslint/bin/eslint.js -c tools/web-check/eslint.config.js \
//     --max-warnings 0 web tests/web tools/web-check clients/js
import js from '@eslint/js';
import globals from 'globals';

// Every module: ES2022, its globals; unused disable comments reported.
const modules = (globalNames) => ({
  languageOptions: {ecmaVersion: 2022, sourceType: 'module', globals: globalNames},
  linterOptions: {reportUnusedDisableDirectives: 'error'},
});
// What every file is held to; what ships (the page, the client) to more.
const everywhere = {
  'no-unused-vars': ['error', {args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none'}],
  'no-var': 'error',
  eqeqeq: ['error', 'always', {null: 'ignore'}],
  'no-duplicate-imports': 'error',
};
const shipped = {
  ...everywhere,
  'prefer-const': ['error', {destructuring: 'all'}],
  'no-self-compare': 'error',
  'no-template-curly-in-string': 'error',
  'no-unmodified-loop-condition': 'error',
  'no-unreachable-loop': 'error',
  'no-promise-executor-return': 'error',
  'no-constructor-return': 'error',
};

export default [
  {ignores: ['web/types/**', '**/node_modules/**', 'tests/web/web-output/**']},
  js.configs.recommended,
  {
    files: ['web/**/*.js'],
    ...modules({...globals.browser}),
    rules: {
      ...shipped,
      'no-implicit-globals': 'error',
      'no-use-before-define': ['error', {functions: false, classes: false, variables: false}],
    },
  },
  {
    // The JavaScript client runs in browsers and on Node: its modules use the globals of both
    // only where it checks which it has (localStorage, process).
    files: ['clients/js/**/*.js', 'clients/js/**/*.mjs'],
    ...modules({...globals.node, ...globals.browser}),
    rules: shipped,
  },
  {
    // Node scripts; the tests' callbacks run in the page, so both sets of globals.
    files: ['tests/web/**/*.mjs', 'tools/web-check/**/*.mjs', 'tools/web-check/**/*.js'],
    ...modules({...globals.node, ...globals.browser}),
    rules: everywhere,
  },
];
