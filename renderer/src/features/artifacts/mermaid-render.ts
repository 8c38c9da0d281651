import type Mermaid from 'mermaid';

/** Mermaid is large: it loads on the first diagram, never with the app. */
let loading: Promise<typeof Mermaid> | null = null;
let count = 0;

function load() {
  loading ??= import('mermaid').then(({ default: mermaid }) => {
    // strict: no scripts, no click handlers, labels as SVG text (the picture is shown as an image).
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default', flowchart: { htmlLabels: false }, fontFamily: 'DejaVu Sans, Arial, sans-serif' });
    return mermaid;
  });
  return loading;
}

/** Renders a Mermaid diagram to SVG text (throws Mermaid's parse error for a wrong diagram). */
export async function renderMermaid(code: string): Promise<string> {
  const mermaid = await load();
  count += 1;
  const { svg } = await mermaid.render(`parley-mermaid-${count}`, code);
  return svg;
}

/** An SVG text as a data URL for an `<img>`: shown as a picture, nothing in it runs. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
