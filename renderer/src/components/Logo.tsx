import { useId } from 'react';

/**
 * The Parley mark: a speech card with three lines. Each drawing has its own gradient id: with a
 * shared one, a hidden copy (the desktop sidebar's, while the phone layout shows another) takes
 * the gradient with it and the visible mark is drawn without fill.
 */
export function Logo({ size = 28 }: { size?: number }) {
  const gradient = `parley-logo-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" data-testid="logo">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#818cf8" />
          <stop offset="1" stopColor="#4f46e5" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill={`url(#${gradient})`} />
      <path d="M9 11h14M9 16h10M9 21h6" stroke="white" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}
