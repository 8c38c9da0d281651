import { buildUser } from '../helpers/builders';
import { expect, signIn, snap, test } from './fixtures';

test('a knowledge base is shared with one person picked by name, and says plainly who can use it before that', async ({ page, server, admin }) => {
  const api = server.as(admin.token);
  const bob = await buildUser(server, admin, 'user', 'Bob Builder');
  await buildUser(server, admin, 'user', 'Carol Clerk');
  const base = (await api.post('/api/v1/knowledge/create', { name: 'Handbook', description: '' })).body as { id: string };
  expect((await server.as(bob.token).get(`/api/v1/knowledge/${base.id}`)).status).not.toBe(200);

  await signIn(page, admin.email, admin.password);
  await page.goto(`/workspace/knowledge/${base.id}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name, description, language and access' });
  await dialog.getByRole('radio', { name: /Private/ }).check();
  await expect(dialog.getByText('Only you can search this knowledge base in chats until you share it.')).toBeVisible();
  await dialog.getByLabel('People who may use it', { exact: true }).fill('bob');
  await dialog.getByRole('button', { name: 'Bob Builder' }).click();
  await expect(dialog.getByRole('button', { name: 'Bob Builder', pressed: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Carol Clerk' })).toHaveCount(0);
  await expect(dialog.getByTestId('access-private-hint')).toHaveCount(0);
  await snap(page, 'workspace-knowledge-share-person');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const saved = (await api.get(`/api/v1/knowledge/${base.id}`)).body;
  expect(saved.access_control.read.user_ids).toEqual([bob.id]);
  expect((await server.as(bob.token).get(`/api/v1/knowledge/${base.id}`)).status).toBe(200);

  // Opened again, the person is shown by name and can be taken off.
  await page.getByRole('button', { name: 'Edit' }).click();
  await dialog.getByRole('button', { name: 'Bob Builder', pressed: true }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  expect((await api.get(`/api/v1/knowledge/${base.id}`)).body.access_control.read.user_ids).toEqual([]);
});

test('a new custom model says that only its maker can use it until it is shared, in English and German', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/workspace/models/new');
  await expect(page.getByRole('radio', { name: /Private/ })).toBeChecked();
  await expect(page.getByText('Only you can use this model until you share it.')).toBeVisible();
  await page.getByRole('radio', { name: /Public/ }).check();
  await expect(page.getByText('Only you can use this model until you share it.')).toHaveCount(0);

  await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
  await page.reload();
  await expect(page.getByText('Nur Sie können dieses Modell verwenden, bis Sie es teilen.')).toBeVisible();
  await snap(page, 'i18n-de-model-private-hint');
});

test('without the public-sharing permission, Public is not offered for a private knowledge base or model, and says why; with it, it is', async ({ page, server, admin }) => {
  const bob = await buildUser(server, admin, 'user', 'Bob Builder');
  const base = (await server.as(bob.token).post('/api/v1/knowledge/create', { name: 'Bob notes', description: '' })).body as { id: string };
  const hint = 'Only people allowed to share publicly can make this public: ask an administrator.';

  await signIn(page, bob.email, bob.password);
  await page.goto(`/workspace/knowledge/${base.id}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name, description, language and access' });
  await expect(dialog.getByRole('radio', { name: /Private/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /Public/ })).toBeDisabled();
  await expect(dialog.getByText(hint)).toBeVisible();
  await snap(page, 'workspace-knowledge-public-needs-permission');
  await page.goto('/workspace/models/new');
  await expect(page.getByRole('radio', { name: /Public/ })).toBeDisabled();
  await expect(page.getByText(hint)).toBeVisible();

  // The administrator lets everyone share knowledge publicly: the choice is there after a reload.
  const defaults = (await server.as(admin.token).get('/api/v1/users/default/permissions')).body;
  await server.as(admin.token).post('/api/v1/users/default/permissions', { ...defaults, sharing: { ...defaults.sharing, public_knowledge: true } });
  await page.goto(`/workspace/knowledge/${base.id}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await dialog.getByRole('radio', { name: /Public/ }).check();
  await expect(dialog.getByText(hint)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  expect((await server.as(bob.token).get(`/api/v1/knowledge/${base.id}`)).body.access_control).toBeNull();
});
