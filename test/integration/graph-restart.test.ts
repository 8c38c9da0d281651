import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { signupAdmin } from '../helpers/builders';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';
import { longReport, waitForGraph } from './graph-helpers';
import { createBase, uploadFile, waitForFiles } from './knowledge-helpers';

describe('knowledge graph across restarts', () => {
  const dataDir = tempDataDir();
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes a build the previous run left half done, keeping its progress', async () => {
    server = await startTestServer({ dataDir });
    const admin = await signupAdmin(server);
    const id = await createBase(server, admin, 'Interrupted');
    // ≈ 400 chunks: still building when the service stops.
    for (let i = 0; i < 4; i += 1) {
      const file = await uploadFile(server, admin, `report-${i}.txt`, longReport(i + 7, 200));
      await server.as(admin.token).post(`/api/knowledge/${id}/file/add`, { file_id: file });
    }
    await waitForFiles(server, admin, id, 60_000);
    await server.as(admin.token).post(`/api/knowledge/${id}/graph/toggle`, { enabled: true });
    const before = await waitForGraph(server, admin, id, (s) => s.status !== 'building' || s.progress > 0);
    expect(before.status).toBe('building');
    await server.close();

    server = await startTestServer({ dataDir });
    const signin = await server.anon.post('/api/v1/auths/signin', { email: 'admin@example.com', password: 'admin-password' });
    const token = signin.body.token as string;
    const resumed = await server.as(token).get(`/api/v1/knowledge/${id}/graph/status`);
    expect(resumed.body.status).toBe('building');
    expect(resumed.body.progress).toBeGreaterThanOrEqual(before.progress);
    const done = await waitForGraph(server, { ...admin, token }, id);
    expect(done).toMatchObject({ status: 'ready', progress: 100 });
    expect(done.entities).toBeGreaterThan(10);
  }, 120_000);
});
