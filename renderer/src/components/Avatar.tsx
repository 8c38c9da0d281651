const COLORS = ['#4f46e5', '#0891b2', '#16a34a', '#d97706', '#db2777', '#7c3aed', '#0d9488', '#dc2626'];

function colorOf(seed: string): string {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  return COLORS[h % COLORS.length]!;
}

/** A round picture, or initials on a colour derived from the name when there is no picture. */
export function Avatar({ name, src, large }: { name: string; src?: string | null; large?: boolean }) {
  const hasImage = !!src && src !== '/user.png' && !src.endsWith('/user.png');
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((p) => p[0]?.toUpperCase())
      .join('') || '?';
  return (
    <span className={`avatar${large ? ' large' : ''}`} style={{ background: hasImage ? 'var(--bg-sunken)' : colorOf(name) }} aria-hidden="true">
      {hasImage ? <img src={src} alt="" /> : initials}
    </span>
  );
}
