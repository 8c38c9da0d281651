import { IngestError } from './extraction-error';

/**
 * Text made of a file's records (CSV rows with their column names, JSON leaves with their paths)
 * grows with repetition: a header of many long column names over many short rows, or one long
 * path over many leaves, turns a few MB into GBs. What the text of one file may reach.
 */
export const MAX_STRUCTURED_CHARS = 64 * 1024 * 1024;

/** Collects lines up to {@link MAX_STRUCTURED_CHARS}, refusing the file past it. */
function lineBudget(kind: string) {
  const lines: string[] = [];
  let chars = 0;
  return {
    push(line: string): void {
      chars += line.length + 1;
      if (chars > MAX_STRUCTURED_CHARS) throw new IngestError(`The ${kind} file was refused: its text expands to more than ${MAX_STRUCTURED_CHARS / 1048576} MB (too large to index)`);
      lines.push(line);
    },
    text: () => lines.join('\n'),
  };
}

/** Parses CSV (RFC 4180: quotes, doubled quotes, newlines in quotes). */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

/** CSV rows as self-describing lines (`name: Ada; role: admin`), so each chunk keeps its column names. */
export function csvText(source: string, delimiter: string): string {
  const [header, ...rows] = parseCsv(source, delimiter);
  if (!header) return '';
  if (rows.length === 0) return header.join(', ');
  const names = header.map((name, i) => name.trim() || `column ${i + 1}`);
  const out = lineBudget('CSV');
  for (const row of rows) out.push(row.map((value, i) => `${names[i] ?? `column ${i + 1}`}: ${value.trim()}`).join('; '));
  return out.text();
}

/** JSON flattened to `path: value` lines. */
export function jsonText(source: string): string {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new IngestError(`The JSON file is not valid: ${(error as Error).message}`);
  }
  const out = lineBudget('JSON');
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, item] of Object.entries(v)) walk(item, path ? `${path}.${k}` : k);
    else out.push(path ? `${path}: ${String(v)}` : String(v));
  };
  try {
    walk(value, '');
  } catch (error) {
    if (error instanceof RangeError) throw new IngestError('The JSON file was refused: it is nested too deeply');
    throw error;
  }
  return out.text();
}
