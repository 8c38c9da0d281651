import type { GraphView } from './graph-view';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON safe inside a `<script type="application/json">` block. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The Content-Security-Policy of the page: only its own nonce'd scripts run; no network at all. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // force-graph injects a small <style> element for its tooltip.
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2433;background:#f6f7f9;display:flex;flex-direction:column;height:100vh}
header{display:flex;gap:12px;align-items:center;padding:8px 12px;background:#fff;border-bottom:1px solid #dde1e7;flex-wrap:wrap}
header h1{font-size:16px;margin:0}header .meta{color:#5b6474;font-size:12px}
#search{margin-left:auto;padding:6px 10px;border:1px solid #c5ccd6;border-radius:6px;min-width:220px}
main{flex:1;display:flex;min-height:0}#graph{flex:1;min-width:0;position:relative}
aside{width:340px;max-width:45vw;overflow:auto;background:#fff;border-left:1px solid #dde1e7;padding:12px}
aside h2{font-size:15px;margin:0 0 4px}aside h3{font-size:13px;margin:14px 0 6px;color:#5b6474;text-transform:uppercase;letter-spacing:.04em}
.chip{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;color:#fff}
.chunk{border:1px solid #e3e7ec;border-radius:6px;padding:8px;margin:0 0 8px;white-space:pre-wrap;font-size:13px;background:#fafbfc}
.chunk .file{color:#5b6474;font-size:11px;margin-bottom:4px}
button.link{background:none;border:0;padding:2px 0;color:#1f5fbf;cursor:pointer;text-align:left;font:inherit;display:block}
.legend span{margin-right:8px;font-size:12px}.empty{padding:40px;color:#5b6474}
`;

const SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('graph-data').textContent);
  var colors = { person: '#d1495b', place: '#00798c', organization: '#edae49', topic: '#66a182' };
  var colorOf = function (type) { return colors[type] || '#8d96a7'; };
  // force-graph puts a node's label into its tooltip as HTML: entity names come from documents.
  var esc = function (text) { return String(text).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; }); };
  var el = function (tag, text, cls) { var e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; };
  var details = document.getElementById('details');
  var byId = new Map(data.nodes.map(function (n) { return [n.id, n]; }));
  var neighbours = new Map();
  data.links.forEach(function (l) {
    [[l.source, l.target], [l.target, l.source]].forEach(function (p) {
      if (!neighbours.has(p[0])) neighbours.set(p[0], new Map());
      var m = neighbours.get(p[0]); m.set(p[1], (m.get(p[1]) || 0) + l.weight);
    });
  });
  var legend = document.getElementById('legend');
  Object.keys(colors).forEach(function (t) { var s = el('span', '\\u25CF ' + t); s.style.color = colors[t]; legend.appendChild(s); });
  if (data.nodes.length === 0) {
    document.getElementById('graph').appendChild(el('p', data.status.status === 'building' ? 'The graph is being built (' + data.status.progress + '%). Reload in a moment.' : 'No entities in this graph yet.', 'empty'));
    return;
  }
  var selected = null, matches = new Set();
  var labelFloor = data.nodes.length > 40 ? data.nodes[39].mentions + 1 : 0;
  var container = document.getElementById('graph');
  var graph = new ForceGraph(container)
    .graphData({ nodes: data.nodes.map(function (n) { return Object.assign({}, n); }), links: data.links.map(function (l) { return Object.assign({}, l); }) })
    .nodeId('id')
    .nodeLabel(function (n) { return esc(n.name + ' (' + n.type + ', ' + n.mentions + ')'); })
    .nodeVal(function (n) { return 1 + Math.log2(1 + n.mentions) * 2; })
    .nodeColor(function (n) { if (matches.size && !matches.has(n.id)) return '#d5d9e0'; return n.id === selected ? '#1d2433' : colorOf(n.type); })
    .linkColor(function () { return 'rgba(120,130,150,0.35)'; })
    .linkWidth(function (l) { return Math.min(4, 0.4 + Math.log2(1 + l.weight)); })
    .linkLabel(function (l) { return l.type; })
    .nodeCanvasObjectMode(function () { return 'after'; })
    .nodeCanvasObject(function (n, ctx, scale) {
      // Names of the busiest entities always, of the others once zoomed in, or when selected or found.
      if (!(scale > 2 || n.mentions >= labelFloor || n.id === selected || matches.has(n.id))) return;
      var size = 11 / scale;
      ctx.font = size + 'px system-ui, sans-serif';
      ctx.textAlign = 'center'; ctx.textBaseline = 'top';
      ctx.fillStyle = matches.size && !matches.has(n.id) ? '#b5bcc7' : '#1d2433';
      ctx.fillText(n.name, n.x, n.y + Math.sqrt(1 + Math.log2(1 + n.mentions) * 2) * 4 + 2 / scale);
    })
    .onNodeClick(function (n) { show(n.id); graph.centerAt(n.x, n.y, 600); });
  var resize = function () { graph.width(container.clientWidth).height(container.clientHeight); };
  window.addEventListener('resize', resize); resize();

  function show(id) {
    var n = byId.get(id); if (!n) return;
    selected = id; graph.nodeColor(graph.nodeColor());
    details.replaceChildren();
    details.appendChild(el('h2', n.name));
    var chip = el('span', n.type, 'chip'); chip.style.background = colorOf(n.type); details.appendChild(chip);
    details.appendChild(el('span', '  mentioned ' + n.mentions + ' time' + (n.mentions === 1 ? '' : 's')));
    var near = Array.from((neighbours.get(id) || new Map()).entries()).sort(function (a, b) { return b[1] - a[1]; }).slice(0, 15);
    if (near.length) {
      details.appendChild(el('h3', 'Related'));
      near.forEach(function (p) { var o = byId.get(p[0]); if (!o) return; var b = el('button', o.name + ' \\u00b7 ' + p[1], 'link'); b.addEventListener('click', function () { show(o.id); }); details.appendChild(b); });
    }
    details.appendChild(el('h3', 'Sources'));
    n.chunks.forEach(function (cid) {
      var c = data.chunks[String(cid)]; if (!c) return;
      var box = el('div', null, 'chunk'); box.appendChild(el('div', c.file + ' \\u00b7 chunk ' + cid, 'file')); box.appendChild(el('div', c.text)); details.appendChild(box);
    });
  }

  var search = document.getElementById('search');
  search.addEventListener('input', function () {
    var q = search.value.trim().toLowerCase();
    matches = new Set(q ? data.nodes.filter(function (n) { return n.name.toLowerCase().indexOf(q) >= 0; }).map(function (n) { return n.id; }) : []);
    graph.nodeColor(graph.nodeColor());
    if (!q) return;
    details.replaceChildren(el('h3', matches.size + ' match' + (matches.size === 1 ? '' : 'es')));
    Array.from(matches).slice(0, 50).forEach(function (id) { var n = byId.get(id); var b = el('button', n.name + ' (' + n.type + ')', 'link'); b.addEventListener('click', function () { show(id); var g = graph.graphData().nodes.find(function (x) { return x.id === id; }); if (g && g.x != null) { graph.centerAt(g.x, g.y, 600); graph.zoom(3, 600); } }); details.appendChild(b); });
  });
})();
`;

/** The self-contained graph page: the library, the data and the viewer inline, nothing fetched. */
export function visualizePage(view: GraphView, library: string, nonce: string): string {
  const s = view.status;
  const summary = `${s.entities} entities · ${s.relations} relations · ${s.status}${s.status === 'building' ? ` ${s.progress}%` : ''}${view.truncated ? ` · showing the ${view.nodes.length} most mentioned` : ''}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(view.base.name)} · knowledge graph</title>
<style>${STYLE}</style></head>
<body>
<header><h1>${escapeHtml(view.base.name)}</h1><span class="meta">${escapeHtml(summary)}</span><span class="legend" id="legend"></span>
<input id="search" type="search" placeholder="Search entities" aria-label="Search entities" autocomplete="off"></header>
<main><div id="graph"></div><aside id="details"><p class="meta">Click an entity to see where it is mentioned.</p></aside></main>
<script type="application/json" id="graph-data">${scriptJson(view)}</script>
<script nonce="${nonce}">${library}</script>
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`;
}
