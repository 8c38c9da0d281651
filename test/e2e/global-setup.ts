import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';

/**
 * Builds the UI from the current sources into a temp folder that every test's service serves,
 * and returns the teardown that removes that folder once the run ends.
 */
export default async function globalSetup(): Promise<() => void> {
  const root = path.resolve(import.meta.dirname, '../..');
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-ui-'));
  const removeBuild = () => rmSync(outDir, { recursive: true, force: true });
  try {
    await build({ configFile: path.join(root, 'renderer/vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  } catch (error) {
    removeBuild();
    throw error;
  }
  process.env.PARLEY_E2E_RENDERER = outDir;
  return removeBuild;
}
