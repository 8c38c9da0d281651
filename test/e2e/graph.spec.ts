import { expect, signIn, snap, test } from './fixtures';

const DOCS = [
  'Ada Lovelace worked with Charles Babbage in London on the Analytical Engine. Babbage designed the engine at Cambridge University.',
  'The Royal Society in London honoured Charles Babbage. Ada Lovelace wrote notes on the Analytical Engine for the Royal Society.',
  'Alan Turing studied at Cambridge University and later worked at Bletchley Park with the Government Code and Cypher School.',
];

test('turning on the knowledge graph shows its progress live, then opens the graph view', async ({ page, server, admin }) => {
  const base = (await server.as(admin.token).post('/api/knowledge/create', { name: 'Computing history', description: 'Pioneers' })).body;
  await signIn(page, admin.email, admin.password);
  await page.goto(`/workspace/knowledge/${base.id}`);
  await expect(page.getByRole('heading', { name: 'Computing history' })).toBeVisible();
  await page.getByTestId('knowledge-file-input').setInputFiles(DOCS.map((text, i) => ({ name: `history-${i + 1}.md`, mimeType: 'text/markdown', buffer: Buffer.from(`# Part ${i + 1}\n\n${text}\n`) })));
  const files = page.getByTestId('knowledge-file');
  for (let i = 1; i <= DOCS.length; i += 1) await expect(files.filter({ hasText: `history-${i}.md` })).toContainText('completed', { timeout: 30_000 });

  const graphCard = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Knowledge graph' }) });
  await expect(graphCard.getByTestId('graph-status')).toHaveCount(0);
  await graphCard.getByRole('switch').check();
  const status = graphCard.getByTestId('graph-status');
  // The status follows the build without a reload, from 'Building' to 'Ready · 100%'.
  await expect(status).toContainText(/Building|Ready/);
  await expect(status).toContainText('Ready · 100%', { timeout: 30_000 });
  await expect(status).not.toContainText(/\b0 entities/);
  await snap(page, 'workspace-graph-ready');

  await graphCard.getByRole('button', { name: 'View graph' }).click();
  const view = page.frameLocator('iframe[title="Knowledge graph"]');
  await expect(view.getByRole('searchbox', { name: 'Search entities' })).toBeVisible();
  await graphCard.locator('iframe').scrollIntoViewIfNeeded();
  await snap(page, 'workspace-graph-view');

  await graphCard.getByRole('switch').uncheck();
  await expect(status).toHaveCount(0);
  await expect(graphCard.getByRole('button', { name: 'View graph' })).toBeHidden();
});
