/** Content-Disposition for a download or an inline view (ASCII fallback plus the RFC 5987 UTF-8 form). */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A unique, safe archive entry name for each name (characters file systems refuse replaced; repeats numbered). */
export function uniqueEntryNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((raw) => {
    // eslint-disable-next-line no-control-regex
    const base = raw.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^\.+/, '_') || 'file';
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n += 1) {
      const dot = base.lastIndexOf('.');
      name = dot > 0 ? `${base.slice(0, dot)} (${n})${base.slice(dot)}` : `${base} (${n})`;
    }
    used.add(name.toLowerCase());
    return name;
  });
}
