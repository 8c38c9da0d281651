import { statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signupAdmin } from '../helpers/builders';
import { startTestServer } from '../helpers/server';

const mode = (file: string) => statSync(file).mode & 0o777;

describe.skipIf(process.platform === 'win32')('data dir permissions', () => {
  it('keeps the database, uploads, indexes and logs away from other OS accounts', async () => {
    const server = await startTestServer({ logLevel: 'info' });
    const dataDir = server.dataDir;
    try {
      await signupAdmin(server);
      for (const dir of ['', 'uploads', 'indexes', 'logs']) expect(mode(path.join(dataDir, dir)), `${dir || 'data dir'}`).toBe(0o700);
      for (const file of ['parley.db', 'parley.db-wal', 'parley.db-shm', path.join('logs', 'parley.log')]) {
        expect(mode(path.join(dataDir, file)), file).toBe(0o600);
      }
      const everyone = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((f) => (statSync(path.join(f.parentPath, f.name)).mode & 0o077) !== 0 && f.parentPath === dataDir);
      expect(everyone.map((f) => f.name)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
