import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import parley from './boundaries.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
    { files: ['**/*.ts'], plugins: { parley }, rules: { 'parley/boundaries': 'error' } },
    { files: ['server/platform/db/migrations/*.ts'], plugins: { parley }, rules: { 'parley/migration-name': 'error' } },
  ],
});

/** The messages linting `code` as the file `file` gives. */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.message);
}

describe('the boundary lint rules', () => {
  it('let a domain use another one through its index.ts, platform/ and contracts/', async () => {
    expect(await problems('server/chats/chats.routes.ts', "import { route } from '../platform/http/route';\nimport { Chat } from '../contracts/chats';\nimport type { FilesService } from '../files';\nimport { x } from './chats.service';")).toEqual([]);
    expect(await problems('server/chats/search/search.ts', "import { y } from '../chats.repo';\nimport { z } from '../../files/index';")).toEqual([]);
  });

  it('refuse another domain’s internals, from a domain, a sub-folder or the composition root', async () => {
    expect(await problems('server/tools/prompt-calling.ts', "import { renderTemplate } from '../tasks/template';")).toEqual([expect.stringMatching(/through its index\.ts/)]);
    expect(await problems('server/builtin/runtime/host.ts', "import type { ChatMessage } from '../../providers/provider';")).toEqual([expect.stringMatching(/through its index\.ts/)]);
    expect(await problems('server/services.ts', "export { hashPassword } from './auth/passwords';")).toEqual([expect.stringMatching(/through its index\.ts/)]);
  });

  it('keep platform/ free of domains, domains away from the composition root, and main/ behind server/index.ts', async () => {
    expect(await problems('server/platform/http/route.ts', "import { requireUser } from '../../session';")).toEqual([expect.stringMatching(/platform\/ knows no domain/)]);
    expect(await problems('server/users/users.service.ts', "import type { Services } from '../services';")).toEqual([expect.stringMatching(/composition root/)]);
    expect(await problems('main/shell.ts', "import { adoptLegacyDataDir } from '../server/platform/paths';")).toEqual([expect.stringMatching(/server\/index\.ts/)]);
    expect(await problems('main/ipc.ts', "import type { LanStatus } from '../server/contracts/lan';\nimport { startServer } from '../server';")).toEqual([]);
  });

  it('keep the knex Db type in repos and composition', async () => {
    const code = "import type { Db } from '../../platform/db/knex';";
    expect(await problems('server/chats/search/word-index.ts', code)).toEqual([expect.stringMatching(/Db type belongs/)]);
    expect(await problems('server/chats/search/chat-search.repo.ts', code)).toEqual([]);
    expect(await problems('server/chats/chat-library.module.ts', "import type { Db } from '../platform/db/knex';")).toEqual([]);
  });

  it('name migrations YYYYMMDDHHmm-what-changes.ts', async () => {
    expect(await problems('server/platform/db/migrations/202611220001-create-users.ts', 'export {};')).toEqual([]);
    expect(await problems('server/platform/db/migrations/create-users.ts', 'export {};')).toEqual([expect.stringMatching(/YYYYMMDDHHmm/)]);
    expect(await problems('server/platform/db/migrations/202613220001-Create_Users.ts', 'export {};')).toHaveLength(1);
  });
});
