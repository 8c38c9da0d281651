// Checks the built service (dist/) for the fault that tests of the TypeScript sources cannot see:
// a module loaded by the bundle that lacks an export the code reads from it. A CommonJS library
// bundled into a split chunk exposes only `default`, so `const { generate } = await import(…)`
// works from source and fails in the app people run.
//
// For every file of the current build (dist/.build-stamps.json), it finds:
// - each `import()` with a literal specifier, and what the code reads from it: the names given to
//   loadExports (server/platform/library-exports.ts; found on the namespace or on its default),
//   a destructuring `const { a } = await import(…)` or `(await import(…)).a` (on the namespace);
// - each static `import { a } from "package"` of a package left outside the bundle.
// Then it loads each module in plain Node, as the app does, and reports every missing name. A
// dynamic import in Parley's own code (server/, main/) used in any other shape is reported too:
// what it expects could not be checked.
//
// Usage: node scripts/check-dist-imports.mjs [distDir] → prints a JSON report; exit code 1 on problems.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
/** Provided by the Electron runtime, not loadable under Node. */
const RUNTIME_PROVIDED = new Set(['electron']);
const LOADER = /^loadExports\d*$/;

const stamps = JSON.parse(readFileSync(path.join(dist, '.build-stamps.json'), 'utf8'));
const files = (stamps.server?.history?.[0] ?? []).filter((f) => f.endsWith('.js')).map((f) => path.join(dist, f));

const isBuiltin = (spec) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]);
const isBare = (spec) => !spec.startsWith('.') && !spec.startsWith('/') && !spec.startsWith('file:');

/** esbuild prefixes each bundled module with a `// path` comment: the source file at `pos`. */
function sourceAt(text, pos) {
  const before = text.lastIndexOf('\n// ', pos);
  if (before < 0) return '';
  return text.slice(before + 4, text.indexOf('\n', before + 4)).trim();
}

const ownCode = (source) => /^(server|main)\//.test(source);
const unwrap = (node) => {
  let n = node.parent;
  while (n && (ts.isParenthesizedExpression(n) || ts.isAwaitExpression(n))) n = n.parent;
  return n;
};

/** The names a destructuring `{ a, b: c }` reads, or undefined when one is computed. */
function bindingNames(pattern) {
  const names = pattern.elements.map((e) => e.propertyName ?? e.name).map((n) => (ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : null));
  return names.includes(null) ? undefined : { names, onDefault: false };
}

/** What the code around `call` (an `import()`) reads from the module, or undefined when it cannot tell. */
function expectations(call) {
  const parent = call.parent;
  // loadExports(import("x"), "x", "a", "b")
  if (ts.isCallExpression(parent) && parent.arguments[0] === call && ts.isIdentifier(parent.expression) && LOADER.test(parent.expression.text)) {
    const names = parent.arguments.slice(2).map((a) => (ts.isStringLiteral(a) ? a.text : null));
    if (names.includes(null)) return undefined;
    return { names, onDefault: true };
  }
  // const [{ a }, { b }] = await Promise.all([import("x"), import("y")])
  if (ts.isArrayLiteralExpression(parent) && ts.isCallExpression(parent.parent) && parent.parent.expression.getText() === 'Promise.all') {
    const holder = unwrap(parent.parent);
    const element = holder && ts.isVariableDeclaration(holder) && ts.isArrayBindingPattern(holder.name) ? holder.name.elements[parent.elements.indexOf(call)] : undefined;
    if (!element || ts.isOmittedExpression(element) || !ts.isObjectBindingPattern(element.name)) return undefined;
    return bindingNames(element.name);
  }
  if (!ts.isAwaitExpression(parent)) return undefined;
  // const { a, b: c } = await import("x")
  const holder = unwrap(call);
  if (holder && ts.isVariableDeclaration(holder) && ts.isObjectBindingPattern(holder.name)) return bindingNames(holder.name);
  // (await import("x")).a
  if (holder && ts.isPropertyAccessExpression(holder) && ts.isParenthesizedExpression(holder.expression)) return { names: [holder.name.text], onDefault: false };
  return undefined;
}

const checks = [];
const problems = [];
for (const file of files) {
  if (!existsSync(file)) {
    problems.push({ file: path.relative(dist, file), problem: 'listed in the build stamps but missing' });
    continue;
  }
  const text = readFileSync(file, 'utf8');
  // Parsing is the slow part: skip files with neither a dynamic import nor an import of a package.
  if (!text.includes('import(') && !/^import [^;]* from "[^./]/m.test(text)) continue;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (isBare(spec) && !isBuiltin(spec) && !RUNTIME_PROVIDED.has(spec) && clause && !clause.isTypeOnly) {
        const names = [];
        if (clause.name) names.push('default');
        if (clause.namedBindings && ts.isNamedImports(clause.namedBindings)) for (const e of clause.namedBindings.elements) names.push((e.propertyName ?? e.name).text);
        if (names.length > 0) checks.push({ file, spec, names, onDefault: false, where: sourceAt(text, node.pos) || 'static import' });
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const where = sourceAt(text, node.pos);
      const arg = node.arguments[0];
      if (!arg || !ts.isStringLiteralLike(arg)) {
        if (ownCode(where)) problems.push({ file: path.relative(dist, file), source: where, problem: 'an import() whose specifier is not a literal: what it loads cannot be checked' });
      } else if (!isBuiltin(arg.text) && !RUNTIME_PROVIDED.has(arg.text)) {
        const expected = expectations(node);
        if (expected) checks.push({ file, spec: arg.text, ...expected, where });
        else if (ownCode(where)) problems.push({ file: path.relative(dist, file), source: where, spec: arg.text, problem: 'a dynamic import used in a shape this check cannot read: load libraries through loadExports (server/platform/library-exports.ts)' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

const loaded = new Map();
for (const check of checks) {
  const target = isBare(check.spec) ? check.spec : pathToFileURL(path.resolve(path.dirname(check.file), check.spec)).href;
  if (!loaded.has(target)) loaded.set(target, await import(target).then((ns) => ({ ns }), (error) => ({ error: error instanceof Error ? error.message : String(error) })));
  const { ns, error } = loaded.get(target);
  const at = { file: path.relative(dist, check.file), source: check.where, spec: check.spec };
  if (error) {
    problems.push({ ...at, problem: `cannot be loaded: ${error}` });
    continue;
  }
  const fallback = ns.default;
  const missing = check.names.filter((name) => {
    if (name in ns) return false;
    return !(check.onDefault && name !== 'default' && fallback !== null && (typeof fallback === 'object' || typeof fallback === 'function') && name in fallback);
  });
  if (missing.length > 0) problems.push({ ...at, problem: `has no export ${missing.map((m) => `'${m}'`).join(', ')} (it exports: ${Object.keys(ns).join(', ')})` });
}

process.stdout.write(`${JSON.stringify({ files: files.length, checked: checks.length, modules: loaded.size, problems }, null, 2)}\n`);
process.exit(problems.length > 0 ? 1 : 0);
