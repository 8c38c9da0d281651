import type { BuiltinModel } from '../contracts/builtin';
import type { BuiltinModelRow } from './builtin.repo';
import { redactUrl, redactUrlsIn } from './download-url';

/**
 * Row → wire shape of a library entry. `full` (admins) shows the download URL as given; others
 * see it without user, password and query values (a signed link's token).
 */
export function presentBuiltinModel(row: BuiltinModelRow, full = true): BuiltinModel {
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
    error: full || row.error === null ? row.error : redactUrlsIn(row.error),
    source_url: full || row.source_url === null ? row.source_url : redactUrl(row.source_url),
    sha256: row.sha256,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
