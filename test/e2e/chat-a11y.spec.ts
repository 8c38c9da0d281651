import { expect, signIn, snap, test } from './fixtures';

// Issue 27, accessibility: the focus ring stands out 3:1 against the sidebar (WCAG 2.2, 1.4.11), in both themes.

/** In the page: the contrast between the focused element's ring (its box-shadow colour, blended over the sidebar) and the sidebar. */
const RING_CONTRAST = `(() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = ({ r, g, b }) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const el = document.activeElement;
  const bg = parse(getComputedStyle(document.querySelector('.sidebar')).backgroundColor);
  const shadow = getComputedStyle(el).boxShadow;
  const ring = parse(shadow.match(/rgba?\\([^)]+\\)/)[0]);
  const mix = { r: ring.r * ring.a + bg.r * (1 - ring.a), g: ring.g * ring.a + bg.g * (1 - ring.a), b: ring.b * ring.a + bg.b * (1 - ring.a) };
  const [hi, lo] = [lum(mix), lum(bg)].sort((x, y) => y - x);
  return { inSidebar: !!el.closest('.sidebar'), contrast: (hi + 0.05) / (lo + 0.05) };
})()`;

for (const theme of ['light', 'dark'] as const) {
  test(`the keyboard focus ring in the sidebar has at least 3:1 contrast (${theme} theme)`, async ({ page, admin }) => {
    await page.emulateMedia({ colorScheme: theme });
    await signIn(page, admin.email, admin.password);
    await page.getByRole('button', { name: 'New chat' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    const { inSidebar, contrast } = await page.evaluate<{ inSidebar: boolean; contrast: number }>(RING_CONTRAST);
    expect(inSidebar).toBe(true);
    expect(contrast).toBeGreaterThanOrEqual(3);
    await snap(page, `focus-ring-${theme}`);
  });
}
