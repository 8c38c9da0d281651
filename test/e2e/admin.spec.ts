import { createServer } from 'node:net';
import { lanAddresses, lanUrl } from '../../server/lan/lan-addresses';
import { buildUser } from '../helpers/builders';
import { httpsGet } from '../helpers/https-get';
import { startMcpServer } from '../fixtures/mcp-server';
import { expect, signIn, snap, test } from './fixtures';
import { freePort } from '../helpers/free-port';

test('an admin creates a group, adds a member and grants it a permission', async ({ page, server, admin }) => {
  const bob = await buildUser(server, admin, 'user', 'Bob Builder');
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/groups');
  await expect(page.getByText(/No groups yet/)).toBeVisible();
  await page.getByRole('button', { name: 'New group' }).click();
  const create = page.getByRole('dialog');
  await create.getByLabel('Name').fill('Research');
  await create.getByLabel('Description').fill('The lab team');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Research', { exact: true })).toBeVisible();
  await expect(page.getByText('0 members')).toBeVisible();

  await page.getByRole('button', { name: 'Edit: Research' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Search by name or email').fill('bob');
  await edit.getByRole('checkbox', { name: /Bob Builder/ }).check();
  await edit.getByRole('switch', { name: 'Tools', exact: true }).check();
  await snap(page, 'admin-group-editor');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByText('1 member', { exact: true })).toBeVisible();
  await snap(page, 'admin-groups');

  const [group] = (await server.as(admin.token).get('/api/v1/groups/')).body;
  expect(group).toMatchObject({ name: 'Research', description: 'The lab team', user_ids: [bob.id] });
  expect(group.permissions.workspace.tools).toBe(true);
});

test('default permissions saved by an admin apply to every user', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/permissions');
  const upload = page.getByRole('switch', { name: 'File upload' });
  await expect(upload).toBeChecked();
  await upload.uncheck();
  await page.getByRole('switch', { name: 'Public tools' }).check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await snap(page, 'admin-default-permissions');

  await page.reload();
  await expect(page.getByRole('switch', { name: 'File upload' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Public tools' })).toBeChecked();
  const saved = (await server.as(admin.token).get('/api/v1/users/default/permissions')).body;
  expect(saved.chat.file_upload).toBe(false);
  expect(saved.sharing.public_tools).toBe(true);
});

test('auth settings: sign-up can be closed, and a bad session lifetime is explained before saving', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/auth');
  const signup = page.getByRole('switch', { name: 'Allow new sign-ups' });
  await expect(signup).toBeChecked();
  await signup.uncheck();

  const lifetime = page.getByLabel('Session lifetime');
  await lifetime.fill('forever');
  await expect(page.getByRole('alert').filter({ hasText: 'Such as 30m, 12h, 7d, 2w' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await snap(page, 'admin-auth-invalid');
  await lifetime.fill('12h');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  const config = (await server.as(admin.token).get('/api/v1/auths/admin/config')).body;
  expect(config).toMatchObject({ ENABLE_SIGNUP: false, JWT_EXPIRES_IN: '12h' });
  const refused = await server.anon.post('/api/v1/auths/signup', { name: 'Eve', email: 'eve@example.com', password: 'eve-password' });
  expect(refused.status).toBe(403);
});

test('retrieval and task settings explain out-of-range numbers and keep saved values', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/retrieval');
  const topK = page.getByLabel('Top K', { exact: true });
  await topK.fill('0');
  await expect(page.getByText('Must be between 1 and 1000.')).toBeVisible();
  const save = page.getByRole('button', { name: 'Save', exact: true }).first();
  await expect(save).toBeDisabled();
  await snap(page, 'admin-retrieval-invalid');
  await topK.fill('7');
  await expect(page.getByText('Must be between 1 and 1000.')).toBeHidden();
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Top K', { exact: true })).toHaveValue('7');
  expect((await server.as(admin.token).get('/api/v1/retrieval/config')).body.TOP_K).toBe(7);

  await page.getByRole('link', { name: 'Tasks' }).click();
  const limit = page.getByLabel('Autocomplete input limit');
  await limit.fill('-5');
  await expect(page.getByText('Must be between -1 and 1000000.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await limit.fill('500');
  await page.getByRole('switch', { name: 'Follow-up suggestions' }).uncheck();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await snap(page, 'admin-tasks');
  await page.reload();
  await expect(page.getByLabel('Autocomplete input limit')).toHaveValue('500');
  await expect(page.getByRole('switch', { name: 'Follow-up suggestions' })).not.toBeChecked();
  expect((await server.as(admin.token).get('/api/v1/tasks/config')).body).toMatchObject({ AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH: 500, ENABLE_FOLLOW_UP_GENERATION: false });
});

test('an MCP tool server added by an admin is verified, lists its tools and is saved', async ({ page, server, admin }) => {
  const mcp = await startMcpServer();
  try {
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/tool-servers');
    await page.getByRole('button', { name: 'Add tool server' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Type').selectOption('mcp');
    await dialog.getByLabel('Base URL').fill(mcp.url);
    await dialog.getByLabel('Server id').fill('calc');
    await dialog.getByLabel('Display name').fill('Calculator');
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(dialog.getByRole('status')).toContainText('4 tools found');
    await expect(dialog.getByRole('status')).toContainText('Adds two numbers');
    await snap(page, 'admin-tool-server-verified');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByText('Calculator', { exact: true })).toBeVisible();
    await snap(page, 'admin-tool-servers');

    const saved = (await server.as(admin.token).get('/api/v1/configs/tool_servers')).body.TOOL_SERVER_CONNECTIONS;
    expect(saved).toEqual([expect.objectContaining({ url: mcp.url, type: 'mcp', info: expect.objectContaining({ id: 'calc', name: 'Calculator' }) })]);
  } finally {
    await mcp.close();
  }
});

test('sharing on the local network shows the addresses with QR codes, warns about open sign-up, and stops', async ({ page, admin }) => {
  const port = await freePort();
  const urls = lanAddresses().map((a) => lanUrl(a, port, 'https'));
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/lan');
  const toggle = page.getByRole('switch', { name: 'Share on local network' });
  await expect(toggle).not.toBeChecked();
  await expect(page.getByText('Not shared')).toBeVisible();
  await page.getByLabel('Port').fill(String(port));
  await page.getByRole('button', { name: 'Use this port' }).click();
  await expect(page.getByRole('button', { name: 'Use this port' })).toBeDisabled();

  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(page.getByText('Sharing', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Sign-up is open' })).toBeVisible();
  if (urls.length > 0) {
    for (const url of urls) {
      await expect(page.getByRole('link', { name: url })).toBeVisible();
      await expect(page.getByRole('img', { name: `QR code for ${url}` })).toBeVisible();
    }
    // The address really answers over HTTPS with the certificate whose fingerprint the page shows.
    const served = await httpsGet(`${urls[0]}/api/config`);
    expect(served.status).toBe(200);
    await expect(page.getByTestId('lan-fingerprint')).toHaveText(served.fingerprint);
  } else {
    await expect(page.getByText(/no LAN address right now/)).toBeVisible();
  }
  await snap(page, 'admin-lan-on');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'admin-lan-on-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // click, not uncheck: the switch follows the service's answer, which may come after the click returns.
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect(page.getByText('Not shared')).toBeVisible();
  await expect(page.getByRole('link', { name: /^https?:\/\// })).toHaveCount(0);
  await expect(page.getByRole('img', { name: /QR code/ })).toHaveCount(0);
});

test('a LAN port that is already taken is reported and sharing stays off', async ({ page, admin }) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/lan');
    await page.getByLabel('Port').fill(String(port));
    await page.getByRole('button', { name: 'Use this port' }).click();
    // click, not check: the refusal comes back so fast that the switch may already be off again.
    await page.getByRole('switch', { name: 'Share on local network' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `Port ${port} is already in use` })).toBeVisible();
    await expect(page.getByRole('switch', { name: 'Share on local network' })).not.toBeChecked();
    await snap(page, 'admin-lan-port-in-use');
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});
