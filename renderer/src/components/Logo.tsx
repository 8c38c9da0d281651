/** The Parley mark: a speech card with three lines. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="parley-logo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#818cf8" />
          <stop offset="1" stopColor="#4f46e5" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#parley-logo)" />
      <path d="M9 11h14M9 16h10M9 21h6" stroke="white" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}
