import type { BuiltinModel } from '../contracts/builtin';
import type { BuiltinModelRow } from './builtin.repo';

/** Row → wire shape of a library entry. */
export function presentBuiltinModel(row: BuiltinModelRow): BuiltinModel {
  return {
    id: row.id,
    name: row.name,
    file_name: row.file_name,
    size: row.size,
    downloaded: row.status === 'ready' ? row.size : row.downloaded,
    architecture: row.architecture,
    context_length: row.context_length,
    quantization: row.quantization,
    ram_estimate: row.ram_estimate,
    kind: row.kind,
    status: row.status,
    error: row.error,
    source_url: row.source_url,
    sha256: row.sha256,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
