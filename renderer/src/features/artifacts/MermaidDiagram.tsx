import { useEffect, useState } from 'react';
import { useT } from '../../lib/i18n';
import { renderMermaid, svgDataUrl } from './mermaid-render';

/** A Mermaid block drawn as a diagram (an image of the SVG); the source stays available beside it. */
export default function MermaidDiagram({ code }: { code: string }) {
  const t = useT();
  const [svg, setSvg] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    renderMermaid(code).then(
      (out) => live && (setSvg(out), setError(null)),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [code]);
  if (error) return <div className="tiny muted mermaid-error">{t('artifacts.mermaidError', { detail: error.split('\n')[0] ?? '' })}</div>;
  if (!svg) return <div className="tiny muted">{t('artifacts.drawing')}</div>;
  // Mermaid sizes the picture to fill its box, with its natural width as max-width: keep that width.
  const natural = /max-width:\s*([\d.]+)px/.exec(svg)?.[1];
  return <img className="mermaid-diagram" src={svgDataUrl(svg)} alt={t('artifacts.diagram')} style={natural ? { width: `min(100%, ${Math.ceil(Number(natural))}px)` } : undefined} data-testid="mermaid-diagram" />;
}
