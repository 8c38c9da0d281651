/** Bytes as people read them: 512 KB, 1.4 GB. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** A download's progress as a fraction (0 when the size is unknown). */
export function fractionOf(model: { downloaded: number; size: number }): number {
  return model.size > 0 ? Math.min(1, model.downloaded / model.size) : 0;
}
