/**
 * The exports a dynamically imported library must provide, read the same way from source (tsx,
 * vitest) and from the esbuild bundle that ships. Node exposes a CommonJS package's exports as
 * named bindings (when its static analysis finds them) and as `default`; a CommonJS package that
 * esbuild bundles into a split chunk exposes only `default`. Each name is taken from the module
 * namespace, else from its `default` object. A missing export throws an error naming the library
 * and the export at once, instead of an `undefined` that fails later as "x is not a function"
 * (or is caught and ignored on the way).
 *
 * Every `import()` of a library in server/ and main/ goes through this (checked by
 * server/platform/library-exports.test.ts), and scripts/check-dist-imports.mjs checks that the
 * built chunks hold each name listed here.
 */
export async function loadExports<M extends object, const K extends keyof M & string>(loading: Promise<M>, library: string, ...names: K[]): Promise<Pick<M, K>> {
  return pickExports(await loading, library, names);
}

/** {@link loadExports} for a namespace already loaded. */
export function pickExports<M extends object, K extends keyof M & string>(namespace: M, library: string, names: readonly K[]): Pick<M, K> {
  const fallback = (namespace as { default?: unknown }).default;
  const picked: Partial<Pick<M, K>> = {};
  for (const name of names) {
    let value: unknown = namespace[name];
    if (value === undefined && name !== 'default' && fallback !== null && (typeof fallback === 'object' || typeof fallback === 'function')) {
      value = (fallback as Record<string, unknown>)[name];
    }
    if (value === undefined) {
      const found = Object.keys(namespace).join(', ') || 'nothing';
      throw new Error(`The library ${library} does not export '${name}' here (it exports: ${found}); the build or the installed version does not match the code`);
    }
    picked[name] = value as M[K];
  }
  return picked as Pick<M, K>;
}
