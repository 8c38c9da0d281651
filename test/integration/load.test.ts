import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts, percentileOf, runLoad } from '../../bench/lib/load-users';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

/** The bounded form of `npm run bench:load`: 20 users for 5 seconds. */
describe('load', () => {
  let server: TestServer;
  let openai: FakeOpenAI;
  let admin: TestUser;

  beforeAll(async () => {
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
    openai.reply({ text: 'A short answer of about a dozen words streamed back to the user.' });
    server = await startTestServer({ envVars: { PARLEY_SIGNIN_RATE_LIMIT: '0' } });
    admin = await signupAdmin(server);
    await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });

  it('serves 20 concurrent users signing in, listing chats, streaming answers and uploading files with zero errors and bounded memory', async () => {
    const accounts = await createAccounts(server.url, admin.token, 20);
    const before = process.memoryUsage().rss;
    const result = await runLoad(server.url, accounts, { seconds: 5, model: 'gpt-fake' });
    const grownMb = (process.memoryUsage().rss - before) / 1048576;
    expect(result.errors).toEqual([]);
    expect(result.latencies.stream.length).toBeGreaterThan(40);
    expect(result.latencies.upload.length).toBeGreaterThan(5);
    expect(percentileOf(result.latencies.list, 99)).toBeLessThan(2_000);
    expect(grownMb).toBeLessThan(250);
    expect((await server.anon.get('/health')).status).toBe(200);
  }, 60_000);
});
