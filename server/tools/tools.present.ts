import type { AccessControl } from '../contracts/access';
import type { FunctionSpec, ToolListEntry, ToolResponse, ToolType } from '../contracts/tools';
import { readJson } from '../platform/db/json';
import type { ToolRow } from './tools.repo';

/** The stored config object of a row. */
export function configOf(row: ToolRow): Record<string, unknown> {
  return readJson<Record<string, unknown>>(row.config, {});
}

/** The stored function specs of a row. */
export function specsOf(row: ToolRow): FunctionSpec[] {
  return readJson<FunctionSpec[]>(row.specs, []);
}

/** Whether a stored tool is switched on (`config.enabled`, default true). */
export function isToolEnabled(row: ToolRow): boolean {
  return configOf(row).enabled !== false;
}

/** A list entry of GET /api/v1/tools. */
export function presentToolEntry(row: ToolRow): ToolListEntry {
  return { id: row.id, name: row.name, type: row.type as ToolType, description: row.description, enabled: isToolEnabled(row), created_at: row.created_at };
}

/** GET /api/v1/tools/{id}. `apiKey` is merged into config only when given (admins). */
export function presentTool(row: ToolRow, apiKey?: string | null): ToolResponse {
  const config = configOf(row);
  return {
    id: row.id,
    name: row.name,
    type: row.type as ToolType,
    description: row.description,
    config: apiKey ? { ...config, api_key: apiKey } : config,
    specs: specsOf(row),
    access_control: readJson<AccessControl>(row.access_control, null),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
