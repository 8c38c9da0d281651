import type { Page } from '@playwright/test';
import { expect, signIn, snap, test } from './fixtures';

const CODE = 'class Tools:\n    def now(self) -> str:\n        """Current time."""\n        return "noon"\n';

/** Holds every tool save for a few seconds, as the sandbox's first start does, so the wait can be seen. */
async function slowSandbox(page: Page): Promise<void> {
  await page.route('**/api/v1/tools/create', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await route.continue();
  });
}

async function newTool(page: Page, name: string): Promise<void> {
  await page.goto('/workspace/tools/new');
  await expect(page.locator('.cm-editor')).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(CODE);
}

test('saving a Python tool shows that the sandbox is checking it, with a spinner, until it is saved (English and German)', async ({ page, server, admin }) => {
  // The sandbox's first start loads Python: well over a minute on a loaded 2-core machine.
  test.setTimeout(300_000);
  await slowSandbox(page);
  await signIn(page, admin.email, admin.password);
  await newTool(page, 'Clock');
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.click();
  const status = page.getByTestId('tool-checking');
  await expect(status).toBeVisible();
  await expect(status).toContainText('Checking the tool in the Python sandbox');
  await expect(save).toBeDisabled();
  await expect(save.locator('.spinner')).toBeVisible();
  await snap(page, 'workspace-tool-checking');
  await expect(page).toHaveURL(/\/workspace\/tools$/, { timeout: 150_000 });
  await expect(page.getByTestId('tool-checking')).toHaveCount(0);

  await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
  await page.reload();
  await newTool(page, 'Uhr');
  await page.getByRole('button', { name: 'Speichern', exact: true }).click();
  await expect(page.getByTestId('tool-checking')).toContainText('Das Tool wird in der Python-Sandbox geprüft');
  await expect(page).toHaveURL(/\/workspace\/tools$/, { timeout: 150_000 });
});
