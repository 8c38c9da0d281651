import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

let cached: Promise<string> | undefined;

/**
 * The minified browser build of `force-graph` (a maintained force-directed graph library on
 * canvas), read once from node_modules — it is a production dependency, so packaged apps carry
 * it — and inlined into the graph page, which then needs no network at all.
 */
export function forceGraphSource(): Promise<string> {
  cached ??= (async () => {
    const require = createRequire(import.meta.url);
    // The package exports its ESM entry; the UMD build sits beside it.
    const entry = require.resolve('force-graph');
    const text = await readFile(path.join(path.dirname(entry), 'force-graph.min.js'), 'utf8');
    return text.replace(/<\/script/gi, '<\\/script');
  })();
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}
