import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';
import { TEXT_FIXTURES } from '../fixtures/documents/build-documents';
import { addAndWait, createBase, query, uploadFile, waitForFiles } from './knowledge-helpers';

describe('search indexes across restarts', () => {
  const dataDir = tempDataDir('parley-index-');
  let server: TestServer | undefined;
  let admin: TestUser;
  let base: string;
  const indexFile = () => path.join(dataDir, 'indexes', `${base}.idx`);
  const restart = async () => {
    await server?.close();
    server = await startTestServer({ dataDir });
    const signin = await server.anon.post('/api/v1/auths/signin', { email: admin.email, password: admin.password });
    admin = { ...admin, token: signin.body.token };
  };

  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('saves the index on shutdown and answers the same after a restart', async () => {
    server = await startTestServer({ dataDir });
    admin = await signupAdmin(server);
    base = await createBase(server, admin, 'Durable');
    for (const [name, text] of Object.entries(TEXT_FIXTURES)) await addAndWait(server, admin, base, await uploadFile(server, admin, name, text));
    const before = await query(server, admin, [base], 'launch code Project Falcon', { relevance_threshold: 0 });
    expect(before.documents[0]).toContain('AZURE-7421');
    await restart();
    expect(existsSync(indexFile())).toBe(true);
    const after = await query(server!, admin, [base], 'launch code Project Falcon', { relevance_threshold: 0 });
    expect(after).toEqual(before);
  });

  it('rebuilds a deleted index file from the database', async () => {
    await server!.close();
    rmSync(indexFile());
    server = undefined;
    await restart();
    const result = await query(server!, admin, [base], 'Gull Island lighthouse built', { relevance_threshold: 0 });
    expect(result.documents[0]).toContain('1874');
    await server!.services.retrieval.service.flush();
    expect(existsSync(indexFile())).toBe(true);
  });

  it('rebuilds a damaged or stale index file instead of failing', async () => {
    await server!.close();
    writeFileSync(indexFile(), Buffer.from('not an index at all'));
    server = undefined;
    await restart();
    expect((await query(server!, admin, [base], 'quantum widget', { relevance_threshold: 0 })).documents[0]).toContain('QX-99');
    // Stale: a file added while the saved index is kept from before.
    const file = await uploadFile(server!, admin, 'new.txt', 'The parrot is called Captain Flint.');
    await addAndWait(server!, admin, base, file);
    expect((await query(server!, admin, [base], 'parrot name', { relevance_threshold: 0 })).documents[0]).toContain('Flint');
    await restart();
    expect((await query(server!, admin, [base], 'parrot name', { relevance_threshold: 0 })).documents[0]).toContain('Flint');
  });

  it('finishes files left pending by a stop', async () => {
    const file = await uploadFile(server!, admin, 'late.txt', 'The night ferry leaves at 23:40 from pier nine.');
    // Record the file as pending without letting ingestion run, as after a crash.
    const now = Math.floor(Date.now() / 1000);
    await server!.services.retrieval.repo.putFile({ collection_id: base, file_id: file, knowledge_id: base, status: 'pending', created_at: now, updated_at: now });
    await restart();
    expect((await waitForFiles(server!, admin, base)).find((f) => f.id === file)).toMatchObject({ status: 'completed' });
    expect((await query(server!, admin, [base], 'night ferry pier', { relevance_threshold: 0 })).documents[0]).toContain('23:40');
  });

  it('removes at start the temp file of a snapshot write that crashed long ago, and keeps the snapshot', async () => {
    await server!.close();
    server = undefined;
    const leftover = path.join(dataDir, 'indexes', `${base}.idx.4242-0-0123456789ab.tmp`);
    writeFileSync(leftover, Buffer.from('half of a snapshot'));
    const longAgo = (Date.now() - 3_600_000) / 1000;
    utimesSync(leftover, longAgo, longAgo);
    await restart();
    const deadline = Date.now() + 5_000;
    while (existsSync(leftover) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(indexFile())).toBe(true);
  });
});
