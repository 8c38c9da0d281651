import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import type { GraphView } from './graph-view';
import { visualizePage } from './visualize-page';

interface ProbeElement {
  innerHTML: string;
  textContent: string | null;
  querySelector(selector: string): unknown;
}

/** A stand-in for force-graph that records the tooltip label function the page installs. */
const FAKE_LIBRARY = `window.ForceGraph = function () {
  var api = new Proxy({}, { get: function (_t, name) { return function (fn) { if (name === 'nodeLabel') window.__label = fn; return api; }; } });
  return api;
};`;

describe('graph page', () => {
  it('shows entity names from documents as text in the tooltip, never as markup', () => {
    const hostile = '<img src=x onerror="parent.signedOut=1">Acme & "Co"';
    const view: GraphView = {
      base: { id: 'kb', name: 'Base <b>' },
      status: { status: 'ready', progress: 100, entities: 1, relations: 0 } as GraphView['status'],
      nodes: [{ id: 1, name: hostile, type: 'organization', mentions: 3, chunks: [] }],
      links: [],
      chunks: {},
      truncated: false,
    };
    const html = visualizePage(view, FAKE_LIBRARY, 'n0nce');
    // The project's jsdom declaration covers only what the HTML extractor uses.
    const Dom = JSDOM as unknown as new (html: string, options: { runScripts: 'dangerously' }) => { window: { document: { createElement(tag: 'div'): ProbeElement }; close(): void } };
    const dom = new Dom(html, { runScripts: 'dangerously' });
    const label = (dom.window as unknown as { __label?: (n: unknown) => string }).__label;
    expect(label).toBeTypeOf('function');
    const text = label?.(view.nodes[0]) ?? '';
    const probe = dom.window.document.createElement('div');
    probe.innerHTML = text;
    expect(probe.querySelector('img')).toBeNull();
    expect(probe.textContent).toBe(`${hostile} (organization, 3)`);
    dom.window.close();
  });
});
