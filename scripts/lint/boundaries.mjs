import { statSync } from 'node:fs';
import path from 'node:path';

/**
 * Parley's own lint rules: the boundaries between the server's folders, and migration names.
 * Paths are read relative to the repository root (this file's grandparent).
 */
const root = path.resolve(import.meta.dirname, '..', '..');

/** `server/auth/x.ts` → ['server', 'auth', 'x.ts']. */
function partsOf(file) {
  return path.relative(root, file).split(path.sep);
}

/** Where a relative import leads, as repository-relative parts (no extension handling: a folder and its `index` are the same). */
function targetOf(file, specifier) {
  const parts = partsOf(path.resolve(path.dirname(file), specifier.replace(/\.(m?js|ts)$/, '')));
  return parts.at(-1) === 'index' ? parts.slice(0, -1) : parts;
}

/** Whether server/<name> is a folder (a domain), not one of the spine's own files. */
function isFolder(name) {
  try {
    return name !== undefined && statSync(path.join(root, 'server', name)).isDirectory();
  } catch {
    return false;
  }
}

/** Folders of server/ that every other folder may reach into: infrastructure and the wire contracts. */
const OPEN = new Set(['platform', 'contracts']);

/** Files that may hold the knex `Db` type: repos, composition and database tooling. */
function mayHoldDb(parts) {
  const name = parts.at(-1);
  return (
    name.endsWith('.repo.ts') ||
    name.endsWith('.module.ts') ||
    (parts.length === 2 && (name === 'services.ts' || name === 'start.ts')) ||
    parts[1] === 'platform' ||
    parts[1] === 'migrate-db'
  );
}

/** Why an import of `target` from `from` crosses a boundary, or undefined. */
function crossing(from, target) {
  if (target[0] !== 'server') return undefined;
  const inside = target.slice(1);
  if (from[0] === 'main') {
    if (inside.length === 0 || inside[0] === 'contracts') return undefined;
    return 'main/ reaches the service only through server/index.ts (and server/contracts)';
  }
  if (from[0] !== 'server') return undefined;
  const fromFolder = from.length > 2 ? from[1] : undefined;
  const toFolder = inside.length > 1 || isFolder(inside[0]) ? inside[0] : undefined;
  if (toFolder === undefined) return fromFolder === undefined ? undefined : `server/${inside[0] ?? 'index.ts'} is the composition root: domains do not import it`;
  if (toFolder === fromFolder || OPEN.has(toFolder)) return undefined;
  if (fromFolder === 'platform') return `platform/ knows no domain: it may not import server/${toFolder}`;
  if (inside.length > 1) return `another domain is reached through its index.ts: import '…/${toFolder}', not '…/${inside.join('/')}'`;
  return undefined;
}

const boundaries = {
  meta: { type: 'problem', docs: { description: "Another server domain only through its index.ts; platform/ imports no domain; main/ only server/index.ts; the knex Db type only in repos and composition." }, schema: [] },
  create(context) {
    const from = partsOf(context.filename);
    const check = (node, source, names) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = targetOf(context.filename, source);
      const why = crossing(from, target);
      if (why) context.report({ node, message: why });
      if (names.includes('Db') && target.join('/') === 'server/platform/db/knex' && !mayHoldDb(from)) {
        context.report({ node, message: 'The knex Db type belongs in *.repo.ts, *.module.ts and the composition files: move the query into a repo' });
      }
    };
    const importedNames = (node) => (node.specifiers ?? []).map((s) => s.imported?.name ?? s.local?.name).filter(Boolean);
    return {
      ImportDeclaration: (node) => check(node, node.source.value, importedNames(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, []),
      ExportAllDeclaration: (node) => check(node, node.source.value, []),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, []),
    };
  },
};

/** STYLE rule 9: `YYYYMMDDHHmm-what-changes.ts`. */
const migrationName = {
  meta: { type: 'problem', docs: { description: 'Migrations are named YYYYMMDDHHmm-what-changes.ts' }, schema: [] },
  create(context) {
    const name = path.basename(context.filename);
    return {
      Program(node) {
        if (name === 'index.ts' || /^\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])([01]\d|2[0-3])[0-5]\d-[a-z0-9]+(-[a-z0-9]+)*\.ts$/.test(name)) return;
        context.report({ node, message: `Migration '${name}' must be named YYYYMMDDHHmm-what-changes.ts (kebab-case)` });
      },
    };
  },
};

export default { rules: { boundaries, 'migration-name': migrationName } };
