import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from './paths';

/** How to start a worker thread: a file to run, or code to evaluate. */
export interface WorkerEntry {
  code: string | URL;
  eval: boolean;
}

/**
 * Where a `*.worker.ts` file under server/ runs from, named by its path below server/ without
 * the extension (`retrieval/ingest/ingest.worker`). Built, it is the bundled
 * `dist/server/<name>.js`; from source (tsx, Vitest) a tiny bootstrap registers tsx inside the
 * worker first, because `--import tsx` in a worker's execArgv does not reach its module loader
 * on Node 20. Answers undefined when the built file is missing.
 */
export function workerEntry(name: string): WorkerEntry | undefined {
  const here = fileURLToPath(import.meta.url);
  const root = packageRoot(path.dirname(here));
  if (here.endsWith('.ts')) {
    const source = pathToFileURL(path.join(root, 'server', `${name}.ts`)).href;
    const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    return { code: `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); });`, eval: true };
  }
  const built = path.join(root, 'dist', 'server', `${name}.js`);
  return existsSync(built) ? { code: built, eval: false } : undefined;
}
