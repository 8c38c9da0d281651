import { startFakeOllama } from '../fixtures/fake-ollama';
import { startFakeOpenAI } from '../fixtures/fake-openai';
import { startTestServer } from '../helpers/server';
import { expect, snap, test } from './fixtures';

test('a new desktop owner is signed in without a form and connects a provider from the setup screen', async ({ page }) => {
  const openai = await startFakeOpenAI({ key: 'sk-right', models: ['fake-gpt'] });
  const ollama = await startFakeOllama({ models: ['llama3:8b'] });
  const server = await startTestServer({ rendererDir: process.env.PARLEY_E2E_RENDERER, envVars: { PARLEY_OLLAMA_PROBE_URL: ollama.url } });
  try {
    // What the desktop shell does on first start: a one-time handover instead of a sign-in form.
    const code = await server.services.desktop.handover.issue('Grace');
    await page.goto(`${server.url}/auths/desktop-handover?code=${code}`);
    await expect(page).toHaveURL(/\/setup$/);
    await expect(page.getByTestId('setup-screen')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Set up Parley' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /Sign in|Welcome/ })).toHaveCount(0);

    // The three ways in: a compatible provider, the Ollama found on this machine, a built-in model.
    await expect(page.getByTestId('setup-option-ollama')).toContainText(`Found at ${ollama.url.replace(/\/+$/, '')} with 1 model`);
    await expect(page.getByTestId('setup-option-builtin')).toBeVisible();
    await snap(page, 'desktop-setup');

    // A wrong key is said on the screen, before anything is saved.
    const compat = page.getByTestId('setup-option-compat');
    await compat.getByRole('button', { name: /OpenAI-compatible/ }).click();
    await compat.getByLabel('API address').fill(openai.url);
    await compat.getByLabel('API key').fill('sk-wrong');
    await compat.getByRole('button', { name: 'Connect and start chatting' }).click();
    await expect(compat.getByRole('alert')).toBeVisible();
    expect((await server.services.providers.settings.entries()).length).toBe(0);

    // The right key: the screen ends in a first chat with the provider's model.
    await compat.getByLabel('API key').fill('sk-right');
    await compat.getByRole('button', { name: 'Connect and start chatting' }).click();
    await expect(page).toHaveURL(new RegExp(`^${server.url}/$`));
    openai.reply({ text: 'Hello from the fake model' });
    await page.getByLabel('Send a message').fill('Hello');
    await page.getByLabel('Send a message').press('Enter');
    await expect(page.getByTestId('message-assistant')).toContainText('Hello from the fake model');

    // The next start hands over again and goes straight to the app: setup is done.
    const next = await server.services.desktop.handover.issue('Grace');
    await page.goto(`${server.url}/auths/desktop-handover?code=${next}`);
    await expect(page).toHaveURL(new RegExp(`^${server.url}/$`));
    await expect(page.getByTestId('setup-screen')).toHaveCount(0);
  } finally {
    await server.close();
    await openai.close();
    await ollama.close();
  }
});
