import type { ConfigService } from '../config';
import type { Role } from '../contracts/auth';
import type { Principal } from '../permissions';
import type { Clock } from '../platform/clock';
import type { Db } from '../platform/db/knex';
import type { Logger } from '../platform/log';
import type { SecretStore } from '../secrets';
import type { UsersRepo } from '../users';
import { createMcpOAuth } from './mcp/oauth';
import { createToolServers, userOAuthTokenName } from './mcp/tool-servers.service';
import { apiToolKind, openApiToolKind } from './openapi/openapi-tool';
import { createPythonSandbox } from './python/python-sandbox';
import { pythonToolKind } from './python/python-tool';
import { createToolResolver } from './toolset';
import { createToolsRepo } from './tools.repo';
import { createToolsService } from './tools.service';

/**
 * The tools domain as other domains use it:
 * - `registry`: the 4.8 registry (routes use it);
 * - `servers`: the tool-server list, MCP sessions and OAuth;
 * - `resolve(input)`: tool ids → specs + executor for one completion (the pipeline's ToolResolver);
 * - `close()`: stops the Python worker.
 * Pyodide and the MCP SDK load lazily, on first use.
 */
export function createTools(deps: {
  db: Db;
  config: ConfigService;
  secrets: SecretStore;
  clock: Clock;
  log: Logger;
  users: UsersRepo;
  principal(user: { id: string; role: Role }): Promise<Principal>;
}) {
  const python = createPythonSandbox({ log: deps.log });
  const oauth = createMcpOAuth({ secrets: deps.secrets, clock: deps.clock, log: deps.log });
  const servers = createToolServers({ config: deps.config, secrets: deps.secrets, oauth, log: deps.log });
  const registry = createToolsService({
    repo: createToolsRepo(deps.db),
    secrets: deps.secrets,
    clock: deps.clock,
    servers,
    principal: deps.principal,
    kinds: { python: pythonToolKind(python), openapi: openApiToolKind(), api: apiToolKind() },
  });
  const resolve = createToolResolver({ tools: registry, servers, users: deps.users, log: deps.log });
  return {
    registry,
    servers,
    resolve,
    python,
    /** For users.beforeUserDeleted: notes the user's tool keys; the returned step drops them and the user's OAuth tokens. */
    async beforeUserDeleted(userId: string): Promise<() => Promise<void>> {
      const keys = await registry.keysOfUser(userId);
      return async () => {
        for (const key of keys) await deps.secrets.delete(key);
        await oauth.forgetUserEverywhere(userId);
        await deps.secrets.delete(userOAuthTokenName(userId));
      };
    },
    close: () => python.close(),
  };
}
export type Tools = ReturnType<typeof createTools>;
