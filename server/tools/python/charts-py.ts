/**
 * `matplotlib.pyplot` for the offline sandbox: the real matplotlib needs numpy and native
 * wheels that Pyodide fetches from a CDN, so Parley ships this pure-Python subset instead. It
 * keeps pyplot's names and call shapes for the everyday charts (line, scatter, bar, barh, hist,
 * pie, fill_between, step, errorbar, axhline/axvline, text) with titles, labels, legends, grids,
 * limits, ticks and subplots, and draws them as SVG. `savefig('x.svg')` writes the file;
 * `show()` (or a figure left open when the code ends) saves `figure-N.svg` in the working folder.
 */
export const CHARTS_PY = String.raw`
"""matplotlib.pyplot as drawn by Parley's offline sandbox: a pure-Python subset that writes SVG."""
import math, os, html

_CYCLE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf']
_NAMED = {'b': '#1f77b4', 'g': '#2ca02c', 'r': '#d62728', 'c': '#17becf', 'm': '#9467bd', 'y': '#bcbd22', 'k': '#000000', 'w': '#ffffff',
          'blue': '#1f77b4', 'orange': '#ff7f0e', 'green': '#2ca02c', 'red': '#d62728', 'purple': '#9467bd', 'brown': '#8c564b', 'pink': '#e377c2',
          'gray': '#7f7f7f', 'grey': '#7f7f7f', 'olive': '#bcbd22', 'cyan': '#17becf', 'black': '#000000', 'white': '#ffffff', 'yellow': '#ffd700',
          'navy': '#000080', 'teal': '#008080', 'gold': '#ffd700', 'skyblue': '#87ceeb', 'lightblue': '#add8e6', 'darkblue': '#00008b',
          'lightgreen': '#90ee90', 'darkgreen': '#006400', 'salmon': '#fa8072', 'coral': '#ff7f50', 'magenta': '#ff00ff', 'lightgray': '#d3d3d3',
          'lightgrey': '#d3d3d3', 'darkgray': '#a9a9a9', 'darkgrey': '#a9a9a9', 'steelblue': '#4682b4', 'tomato': '#ff6347', 'violet': '#ee82ee'}
_MARKERS = set('.o^vs*+xD<>dph')
_DASH = {'-': None, '--': '6,4', ':': '1.5,3', '-.': '6,3,1.5,3', 'solid': None, 'dashed': '6,4', 'dotted': '1.5,3', 'dashdot': '6,3,1.5,3'}
rcParams = {'figure.figsize': [6.4, 4.8], 'font.size': 10}

def _list(values):
    if values is None:
        return []
    if isinstance(values, (str, bytes)):
        return [values]
    if isinstance(values, dict):
        return list(values.values())
    if hasattr(values, 'tolist'):
        values = values.tolist()
    try:
        return list(values)
    except TypeError:
        return [values]

def _num(v):
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        return None

def _color(c, index):
    if c is None:
        return _CYCLE[index % len(_CYCLE)]
    if isinstance(c, (tuple, list)) and len(c) in (3, 4) and all(isinstance(x, (int, float)) for x in c):
        return '#%02x%02x%02x' % tuple(int(max(0, min(1, x)) * 255) for x in c[:3])
    c = str(c)
    if len(c) == 2 and c[0] == 'C' and c[1].isdigit():
        return _CYCLE[int(c[1])]
    return _NAMED.get(c.lower(), c if c.startswith('#') else _CYCLE[index % len(_CYCLE)])

def _fmt(fmt):
    color = marker = None
    style = None
    rest = fmt or ''
    for dash in ('--', '-.', '-', ':'):
        if dash in rest:
            style = dash
            rest = rest.replace(dash, '', 1)
            break
    for ch in rest:
        if ch in _MARKERS:
            marker = ch
        elif ch in 'bgrcmykw':
            color = ch
    if style is None and marker is None:
        style = '-'
    return color, marker, style

def _nice(lo, hi, count=6):
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    span = hi - lo
    raw = span / max(1, count - 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    t = start
    while t <= hi + step * 1e-9:
        if t >= lo - step * 1e-9:
            ticks.append(round(t, 10))
        t += step
    return ticks, step

def _label(v):
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return ('%.4g' % v)
    return str(v)

def _esc(text):
    return html.escape(str(text), quote=True)

class _Series:
    def __init__(self, kind, **kw):
        self.kind = kind
        self.__dict__.update(kw)

class _Stub:
    """Accepts any call or attribute (spines, tick settings) and does nothing."""
    def __getattr__(self, name):
        return _Stub()
    def __call__(self, *a, **k):
        return _Stub()
    def __getitem__(self, key):
        return _Stub()
    def __iter__(self):
        return iter(())

class Axes:
    def __init__(self, fig, index=1, rows=1, cols=1):
        self.figure = fig
        self._pos = (rows, cols, index)
        self._series = []
        self._title = self._xlabel = self._ylabel = ''
        self._xlim = self._ylim = None
        self._xticks = self._yticks = None
        self._xticklabels = self._yticklabels = None
        self._xrotation = 0
        self._grid = False
        self._legend = False
        self._legend_labels = None
        self._categories = []
        self._texts = []
        self._lines = []
        self._inverted_y = False
        self._color_index = 0
        self.spines = _Stub()
        self.xaxis = _Stub()
        self.yaxis = _Stub()

    def _next_color(self, c):
        if c is not None:
            return _color(c, 0)
        col = _CYCLE[self._color_index % len(_CYCLE)]
        self._color_index += 1
        return col

    def _x(self, xs):
        out = []
        for v in xs:
            n = _num(v)
            if n is None:
                key = str(v)
                if key not in self._categories:
                    self._categories.append(key)
                n = float(self._categories.index(key))
            out.append(n)
        return out

    def plot(self, *args, **kw):
        args = list(args)
        fmt = None
        if args and isinstance(args[-1], str) and len(args) > 1:
            fmt = args.pop()
        if len(args) == 1:
            ys = _list(args[0])
            xs = list(range(len(ys)))
        elif len(args) >= 2:
            xs, ys = _list(args[0]), _list(args[1])
        else:
            return []
        fc, marker, style = _fmt(fmt)
        marker = kw.get('marker', marker)
        style = kw.get('linestyle', kw.get('ls', style))
        if marker and 'linestyle' not in kw and 'ls' not in kw and fmt and not any(d in fmt for d in ('-', ':')):
            style = None
        color = self._next_color(kw.get('color', kw.get('c', fc)))
        s = _Series('line', x=self._x(xs), y=[_num(v) for v in ys], color=color, label=kw.get('label'), marker=marker,
                    style=style, width=float(kw.get('linewidth', kw.get('lw', 1.8))), alpha=kw.get('alpha'))
        self._series.append(s)
        return [s]

    def step(self, x, y, *args, **kw):
        xs, ys = self._x(_list(x)), [_num(v) for v in _list(y)]
        sx, sy = [], []
        for i in range(len(xs)):
            if i:
                sx.append(xs[i]); sy.append(ys[i - 1])
            sx.append(xs[i]); sy.append(ys[i])
        return self.plot(sx, sy, *args, **kw)

    def scatter(self, x, y, s=None, c=None, label=None, alpha=None, marker='o', **kw):
        color = self._next_color(c if isinstance(c, str) or c is None else None)
        size = _num(s) if s is not None and _num(s) is not None else 20.0
        ser = _Series('scatter', x=self._x(_list(x)), y=[_num(v) for v in _list(y)], color=color, label=label, size=size, alpha=alpha, marker=marker)
        self._series.append(ser)
        return ser

    def bar(self, x, height, width=0.8, bottom=None, label=None, color=None, align='center', **kw):
        xs, hs = _list(x), _list(height)
        if len(xs) == 1 and len(hs) > 1:
            xs = xs * len(hs)
        if len(hs) == 1 and len(xs) > 1:
            hs = hs * len(xs)
        bottoms = _list(bottom) if bottom is not None else [0] * len(hs)
        if len(bottoms) == 1:
            bottoms = bottoms * len(hs)
        colors = _list(color) if isinstance(color, (list, tuple)) and not (len(color) in (3, 4) and all(isinstance(v, (int, float)) for v in color)) else None
        base = self._next_color(None if colors else color)
        ser = _Series('bar', x=self._x(xs), y=[_num(v) or 0.0 for v in hs], bottom=[_num(v) or 0.0 for v in bottoms], width=float(width),
                      color=base, colors=[_color(c, i) for i, c in enumerate(colors)] if colors else None, label=label, horizontal=False)
        self._series.append(ser)
        return ser

    def barh(self, y, width, height=0.8, left=None, label=None, color=None, **kw):
        ser = self.bar(y, width, width=height, bottom=left, label=label, color=color)
        ser.horizontal = True
        return ser

    def hist(self, x, bins=10, label=None, color=None, alpha=None, range=None, **kw):
        data = [v for v in (_num(v) for v in _list(x)) if v is not None]
        if not data:
            return [], [], None
        lo, hi = (min(data), max(data)) if range is None else range
        if isinstance(bins, int):
            n = max(1, bins)
            w = (hi - lo) / n if hi > lo else 1.0
            edges = [lo + i * w for i in _range(n + 1)]
        else:
            edges = [float(e) for e in _list(bins)]
        counts = [0] * (len(edges) - 1)
        for v in data:
            for i in _range(len(counts)):
                if edges[i] <= v < edges[i + 1] or (i == len(counts) - 1 and v == edges[-1]):
                    counts[i] += 1
                    break
        mids = [(edges[i] + edges[i + 1]) / 2 for i in _range(len(counts))]
        width = (edges[1] - edges[0]) if len(edges) > 1 else 1
        ser = self.bar(mids, counts, width=width, label=label, color=color)
        ser.edge = True
        return counts, edges, ser

    def pie(self, x, labels=None, colors=None, autopct=None, startangle=0, **kw):
        values = [max(0.0, _num(v) or 0.0) for v in _list(x)]
        ser = _Series('pie', values=values, labels=[str(l) for l in _list(labels)] if labels is not None else None,
                      colors=[_color(c, i) for i, c in enumerate(_list(colors))] if colors is not None else None, autopct=autopct, start=float(startangle))
        self._series.append(ser)
        return ser

    def fill_between(self, x, y1, y2=0, color=None, alpha=0.3, label=None, **kw):
        xs = self._x(_list(x))
        a = [_num(v) for v in _list(y1)]
        b = [_num(v) for v in _list(y2)] if isinstance(y2, (list, tuple)) or hasattr(y2, '__iter__') else [float(y2)] * len(xs)
        ser = _Series('fill', x=xs, y=a, y2=b, color=self._next_color(color), alpha=alpha if alpha is not None else 0.3, label=label)
        self._series.append(ser)
        return ser

    def errorbar(self, x, y, yerr=None, fmt='o-', label=None, color=None, **kw):
        lines = self.plot(x, y, fmt, label=label, color=color)
        if yerr is not None:
            errs = _list(yerr)
            if len(errs) == 1:
                errs = errs * len(lines[0].x)
            lines[0].yerr = [_num(e) or 0.0 for e in errs]
        return lines

    def axhline(self, y=0, color='gray', linestyle='--', label=None, **kw):
        self._lines.append(('h', float(y), _color(color, 0), kw.get('ls', linestyle), label))
    def axvline(self, x=0, color='gray', linestyle='--', label=None, **kw):
        self._lines.append(('v', float(x), _color(color, 0), kw.get('ls', linestyle), label))

    def text(self, x, y, s, **kw):
        self._texts.append((_num(x), _num(y), str(s)))
    def annotate(self, text, xy, xytext=None, **kw):
        x, y = xytext if xytext is not None else xy
        self._texts.append((_num(x), _num(y), str(text)))

    def set_title(self, t, **kw): self._title = str(t)
    def set_xlabel(self, t, **kw): self._xlabel = str(t)
    def set_ylabel(self, t, **kw): self._ylabel = str(t)
    def get_title(self): return self._title
    def set_xlim(self, left=None, right=None, **kw):
        if isinstance(left, (list, tuple)): left, right = left
        self._xlim = (_num(left), _num(right))
    def set_ylim(self, bottom=None, top=None, **kw):
        if isinstance(bottom, (list, tuple)): bottom, top = bottom
        self._ylim = (_num(bottom), _num(top))
    def set_xticks(self, ticks, labels=None, **kw):
        self._xticks = self._x(_list(ticks))
        if labels is not None: self._xticklabels = [str(l) for l in _list(labels)]
        if 'rotation' in kw: self._xrotation = float(kw['rotation'])
    def set_yticks(self, ticks, labels=None, **kw):
        self._yticks = [_num(t) for t in _list(ticks)]
        if labels is not None: self._yticklabels = [str(l) for l in _list(labels)]
    def set_xticklabels(self, labels, rotation=None, **kw):
        self._xticklabels = [str(l) for l in _list(labels)]
        if rotation is not None: self._xrotation = float(rotation) if _num(rotation) is not None else 90.0
    def set_yticklabels(self, labels, **kw): self._yticklabels = [str(l) for l in _list(labels)]
    def tick_params(self, axis='both', rotation=None, labelrotation=None, **kw):
        r = rotation if rotation is not None else labelrotation
        if r is not None and axis in ('x', 'both'): self._xrotation = float(r)
    def grid(self, visible=True, *a, **kw): self._grid = bool(visible) if visible is not None else True
    def legend(self, *args, **kw):
        self._legend = True
        if args and isinstance(args[0], (list, tuple)) and all(isinstance(a, str) for a in args[0]):
            self._legend_labels = list(args[0])
    def invert_yaxis(self): self._inverted_y = True
    def set(self, **kw):
        for k, v in kw.items():
            fn = getattr(self, 'set_' + k, None)
            if fn: fn(v)
    def set_aspect(self, *a, **k): pass
    def axis(self, *a, **k): pass
    def margins(self, *a, **k): pass
    def twinx(self): return self

    # drawing
    def _extent(self):
        xs, ys = [], []
        for s in self._series:
            if s.kind in ('line', 'scatter'):
                xs += [v for v in s.x if v is not None]; ys += [v for v in s.y if v is not None]
                for i, e in enumerate(getattr(s, 'yerr', []) or []):
                    if i < len(s.y) and s.y[i] is not None: ys += [s.y[i] - e, s.y[i] + e]
            elif s.kind == 'fill':
                xs += s.x; ys += [v for v in s.y + s.y2 if v is not None]
            elif s.kind == 'bar':
                pos = [x - s.width / 2 for x in s.x] + [x + s.width / 2 for x in s.x]
                vals = [b + h for b, h in zip(s.bottom, s.y)] + s.bottom
                if s.horizontal: ys += pos; xs += vals
                else: xs += pos; ys += vals
        for kind, v, *_ in self._lines:
            (ys if kind == 'h' else xs).append(v)
        for x, y, _ in self._texts:
            if x is not None: xs.append(x)
            if y is not None: ys.append(y)
        if not xs: xs = [0.0, 1.0]
        if not ys: ys = [0.0, 1.0]
        return min(xs), max(xs), min(ys), max(ys)

    def _svg(self, x0, y0, w, h):
        out = []
        pies = [s for s in self._series if s.kind == 'pie']
        if self._title:
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="14" font-weight="600">%s</text>' % (x0 + w / 2, y0 + 16, _esc(self._title)))
        if pies:
            out.append(self._pie_svg(pies[0], x0, y0 + 24, w, h - 24))
            return ''.join(out)
        left, right, top, bottom = x0 + 62, x0 + w - 16, y0 + (30 if self._title else 12), y0 + h - (44 if self._xlabel else 28)
        if self._xrotation: bottom -= 24
        xmin, xmax, ymin, ymax = self._extent()
        has_bars = any(s.kind == 'bar' and not s.horizontal for s in self._series)
        has_hbars = any(s.kind == 'bar' and s.horizontal for s in self._series)
        if has_bars: ymin = min(ymin, 0.0)
        if has_hbars: xmin = min(xmin, 0.0)
        # matplotlib's default margins: 5% of the data's span on each side (bars keep their zero base).
        xpad, ypad = (xmax - xmin) * 0.05 or 0.5, (ymax - ymin) * 0.05 or 0.5
        xmin, xmax = (xmin if has_hbars and xmin == 0 else xmin - xpad), xmax + xpad
        ymin, ymax = (ymin if has_bars and ymin == 0 else ymin - ypad), ymax + ypad
        xt, _ = _nice(xmin, xmax)
        yt, _ = _nice(ymin, ymax)
        if self._xlim:
            xmin = self._xlim[0] if self._xlim[0] is not None else xmin
            xmax = self._xlim[1] if self._xlim[1] is not None else xmax
        if self._ylim:
            ymin = self._ylim[0] if self._ylim[0] is not None else ymin
            ymax = self._ylim[1] if self._ylim[1] is not None else ymax
        if xmax == xmin: xmax = xmin + 1
        if ymax == ymin: ymax = ymin + 1
        sx = lambda v: left + (v - xmin) / (xmax - xmin) * (right - left)
        if self._inverted_y:
            sy = lambda v: top + (v - ymin) / (ymax - ymin) * (bottom - top)
        else:
            sy = lambda v: bottom - (v - ymin) / (ymax - ymin) * (bottom - top)
        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" stroke="#444" stroke-width="0.8"/>' % (left, top, right - left, bottom - top))
        # ticks
        if self._categories and not has_hbars and self._xticks is None:
            xticks = [float(i) for i in range(len(self._categories))]
            xlabels = self._categories
        else:
            xticks = self._xticks if self._xticks is not None else [t for t in xt if xmin - 1e-9 <= t <= xmax + 1e-9]
            xlabels = self._xticklabels if self._xticklabels is not None else [_label(t) for t in xticks]
        if has_hbars and self._categories and self._yticks is None:
            yticks = [float(i) for i in range(len(self._categories))]
            ylabels = self._categories
        else:
            yticks = self._yticks if self._yticks is not None else [t for t in yt if ymin - 1e-9 <= t <= ymax + 1e-9]
            ylabels = self._yticklabels if self._yticklabels is not None else [_label(t) for t in yticks]
        for i, t in enumerate(xticks):
            if t is None: continue
            px = sx(t)
            if self._grid: out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd" stroke-width="0.7"/>' % (px, top, px, bottom))
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444"/>' % (px, bottom, px, bottom + 4))
            label = xlabels[i] if i < len(xlabels) else ''
            if self._xrotation:
                out.append('<text x="%.1f" y="%.1f" text-anchor="end" font-size="10" transform="rotate(%.0f %.1f %.1f)">%s</text>' % (px, bottom + 14, -self._xrotation, px, bottom + 14, _esc(label)))
            else:
                out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="10">%s</text>' % (px, bottom + 16, _esc(label)))
        for i, t in enumerate(yticks):
            if t is None: continue
            py = sy(t)
            if self._grid: out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd" stroke-width="0.7"/>' % (left, py, right, py))
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444"/>' % (left - 4, py, left, py))
            out.append('<text x="%.1f" y="%.1f" text-anchor="end" font-size="10">%s</text>' % (left - 7, py + 3.5, _esc(ylabels[i] if i < len(ylabels) else '')))
        if self._xlabel:
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="12">%s</text>' % ((left + right) / 2, y0 + h - 8, _esc(self._xlabel)))
        if self._ylabel:
            cx, cy = x0 + 14, (top + bottom) / 2
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="12" transform="rotate(-90 %.1f %.1f)">%s</text>' % (cx, cy, cx, cy, _esc(self._ylabel)))
        out.append('<clipPath id="clip%d"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/></clipPath><g clip-path="url(#clip%d)">' % (id(self) % 100000, left, top, right - left, bottom - top, id(self) % 100000))
        bars = [s for s in self._series if s.kind == 'bar']
        for s in self._series:
            if s.kind == 'fill':
                pts = ['%.1f,%.1f' % (sx(x), sy(y)) for x, y in zip(s.x, s.y) if y is not None]
                pts += ['%.1f,%.1f' % (sx(x), sy(y)) for x, y in reversed(list(zip(s.x, s.y2))) if y is not None]
                out.append('<polygon points="%s" fill="%s" fill-opacity="%.2f"/>' % (' '.join(pts), s.color, s.alpha))
            elif s.kind == 'bar':
                for i, (x, v, b) in enumerate(zip(s.x, s.y, s.bottom)):
                    col = s.colors[i % len(s.colors)] if s.colors else s.color
                    edge = ' stroke="#fff" stroke-width="0.6"' if getattr(s, 'edge', False) else ''
                    if s.horizontal:
                        xa, xb = sorted((sx(b), sx(b + v)))
                        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"%s/>' % (xa, sy(x + s.width / 2) if not self._inverted_y else sy(x - s.width / 2), xb - xa, abs(sy(x - s.width / 2) - sy(x + s.width / 2)), col, edge))
                    else:
                        ya, yb = sorted((sy(b), sy(b + v)))
                        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"%s/>' % (sx(x - s.width / 2), ya, sx(x + s.width / 2) - sx(x - s.width / 2), yb - ya, col, edge))
            elif s.kind == 'line':
                pts = [(sx(x), sy(y)) for x, y in zip(s.x, s.y) if y is not None and x is not None]
                if s.style and len(pts) > 1:
                    dash = _DASH.get(s.style)
                    out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="%.1f"%s%s/>' % (' '.join('%.1f,%.1f' % p for p in pts), s.color, s.width,
                               ' stroke-dasharray="%s"' % dash if dash else '', ' stroke-opacity="%.2f"' % s.alpha if s.alpha is not None else ''))
                for i, e in enumerate(getattr(s, 'yerr', []) or []):
                    if i < len(s.y) and s.y[i] is not None:
                        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>' % (sx(s.x[i]), sy(s.y[i] - e), sx(s.x[i]), sy(s.y[i] + e), s.color))
                if s.marker:
                    for px, py in pts:
                        out.append('<circle cx="%.1f" cy="%.1f" r="3.2" fill="%s"/>' % (px, py, s.color))
            elif s.kind == 'scatter':
                r = max(1.5, math.sqrt(s.size) / 1.6)
                op = ' fill-opacity="%.2f"' % s.alpha if s.alpha is not None else ''
                for x, y in zip(s.x, s.y):
                    if y is not None:
                        out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"%s/>' % (sx(x), sy(y), r, s.color, op))
        for kind, v, col, style, _ in self._lines:
            dash = _DASH.get(style)
            d = ' stroke-dasharray="%s"' % dash if dash else ''
            if kind == 'h':
                out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"%s/>' % (left, sy(v), right, sy(v), col, d))
            else:
                out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"%s/>' % (sx(v), top, sx(v), bottom, col, d))
        for x, y, t in self._texts:
            if x is not None and y is not None:
                out.append('<text x="%.1f" y="%.1f" font-size="10">%s</text>' % (sx(x), sy(y), _esc(t)))
        out.append('</g>')
        if self._legend:
            entries = [(s.label, s.color) for s in self._series if getattr(s, 'label', None) and not str(s.label).startswith('_')]
            entries += [(lab, col) for kind, v, col, style, lab in self._lines if lab]
            if self._legend_labels:
                entries = [(lab, self._series[i].color if i < len(self._series) else _CYCLE[i % 10]) for i, lab in enumerate(self._legend_labels)]
            if entries:
                lw = 28 + max(len(str(l)) for l, _ in entries) * 6.2
                lx, ly = right - lw - 6, top + 6
                out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" fill-opacity="0.9" stroke="#ccc"/>' % (lx, ly, lw, 8 + 16 * len(entries)))
                for i, (lab, col) in enumerate(entries):
                    yy = ly + 14 + 16 * i
                    out.append('<rect x="%.1f" y="%.1f" width="14" height="8" fill="%s"/><text x="%.1f" y="%.1f" font-size="10">%s</text>' % (lx + 6, yy - 7, col, lx + 24, yy, _esc(lab)))
        return ''.join(out)

    def _pie_svg(self, s, x0, y0, w, h):
        total = sum(s.values) or 1.0
        cx, cy = x0 + w / 2, y0 + h / 2
        r = min(w, h) / 2 - 40
        out = []
        angle = math.radians(s.start)
        for i, v in enumerate(s.values):
            share = v / total
            a2 = angle + share * 2 * math.pi
            col = s.colors[i % len(s.colors)] if s.colors else _CYCLE[i % len(_CYCLE)]
            x1, y1 = cx + r * math.cos(angle), cy - r * math.sin(angle)
            x2, y2 = cx + r * math.cos(a2), cy - r * math.sin(a2)
            large = 1 if share > 0.5 else 0
            if share >= 0.9999:
                out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"/>' % (cx, cy, r, col))
            elif share > 0:
                out.append('<path d="M%.1f,%.1f L%.1f,%.1f A%.1f,%.1f 0 %d,0 %.1f,%.1f Z" fill="%s" stroke="#fff"/>' % (cx, cy, x1, y1, r, r, large, x2, y2, col))
            mid = (angle + a2) / 2
            if s.labels and i < len(s.labels):
                lx, ly = cx + (r + 14) * math.cos(mid), cy - (r + 14) * math.sin(mid)
                anchor = 'start' if math.cos(mid) > 0.1 else ('end' if math.cos(mid) < -0.1 else 'middle')
                out.append('<text x="%.1f" y="%.1f" text-anchor="%s" font-size="11">%s</text>' % (lx, ly + 4, anchor, _esc(s.labels[i])))
            if s.autopct and share > 0:
                pct = share * 100
                text = s.autopct(pct) if callable(s.autopct) else (s.autopct % pct if '%' in str(s.autopct) else '%.1f%%' % pct)
                px, py = cx + r * 0.62 * math.cos(mid), cy - r * 0.62 * math.sin(mid)
                out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="10" fill="#fff">%s</text>' % (px, py + 3.5, _esc(text)))
            angle = a2
        return ''.join(out)

_range = range

class Figure:
    def __init__(self, figsize=None, **kw):
        size = figsize or rcParams['figure.figsize']
        self.width, self.height = float(size[0]) * 100, float(size[1]) * 100
        self.axes = []
        self._suptitle = ''
        self._saved = False
        _figures.append(self)

    def add_subplot(self, rows=1, cols=1, index=1, **kw):
        if isinstance(rows, int) and rows > 100:
            rows, cols, index = rows // 100, (rows // 10) % 10, rows % 10
        ax = Axes(self, index, rows, cols)
        self.axes.append(ax)
        return ax

    def gca(self):
        return self.axes[-1] if self.axes else self.add_subplot()

    def suptitle(self, t, **kw):
        self._suptitle = str(t)

    def tight_layout(self, *a, **k): pass
    def set_size_inches(self, w, h=None, **k):
        if isinstance(w, (list, tuple)): w, h = w
        self.width, self.height = float(w) * 100, float(h) * 100
    def colorbar(self, *a, **k): return _Stub()
    def legend(self, *a, **k):
        if self.axes: self.axes[0].legend(*a, **k)

    def to_svg(self):
        w, h = self.width, self.height
        top = 28 if self._suptitle else 0
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">' % (w, h, w, h),
                 '<rect width="100%" height="100%" fill="#fff"/>']
        if self._suptitle:
            parts.append('<text x="%.1f" y="20" text-anchor="middle" font-size="15" font-weight="600">%s</text>' % (w / 2, _esc(self._suptitle)))
        for ax in self.axes:
            rows, cols, index = ax._pos
            cw, ch = w / cols, (h - top) / rows
            r, c = (index - 1) // cols, (index - 1) % cols
            parts.append(ax._svg(c * cw, top + r * ch, cw, ch))
        parts.append('</svg>')
        return ''.join(parts)

    def savefig(self, fname, format=None, **kw):
        name = str(fname)
        fmt = (format or os.path.splitext(name)[1].lstrip('.') or 'svg').lower()
        if fmt != 'svg':
            base = os.path.splitext(name)[0] + '.svg'
            import sys
            print('Charts are drawn as SVG here (no %s rasterizer offline): saved %s' % (fmt.upper(), os.path.basename(base)), file=sys.stderr)
            name = base
        folder = os.path.dirname(name)
        if folder:
            os.makedirs(folder, exist_ok=True)
        with open(name, 'w', encoding='utf-8') as f:
            f.write(self.to_svg())
        self._saved = True

    def show(self, *a, **k):
        _show_figure(self)

_figures = []
_current = [None]
_shown = [0]

def _show_figure(fig):
    while True:
        _shown[0] += 1
        name = 'figure-%d.svg' % _shown[0]
        if not os.path.exists(name):
            break
    fig.savefig(name)

def figure(num=None, figsize=None, **kw):
    fig = Figure(figsize=figsize)
    _current[0] = fig
    return fig

def gcf():
    if _current[0] is None or _current[0] not in _figures:
        figure()
    return _current[0]

def gca():
    return gcf().gca()

def subplot(rows=1, cols=1, index=1, **kw):
    if isinstance(rows, int) and rows > 100:
        rows, cols, index = rows // 100, (rows // 10) % 10, rows % 10
    fig = gcf()
    for ax in fig.axes:
        if ax._pos == (rows, cols, index):
            return ax
    return fig.add_subplot(rows, cols, index)

class _AxesGrid(list):
    @property
    def flat(self):
        out = []
        for item in self:
            out.extend(item if isinstance(item, list) else [item])
        return out
    def flatten(self):
        return self.flat
    def ravel(self):
        return self.flat

def subplots(nrows=1, ncols=1, figsize=None, sharex=False, sharey=False, squeeze=True, **kw):
    fig = figure(figsize=figsize)
    axes = [[fig.add_subplot(nrows, ncols, r * ncols + c + 1) for c in range(ncols)] for r in range(nrows)]
    if squeeze and nrows == 1 and ncols == 1:
        return fig, axes[0][0]
    if squeeze and (nrows == 1 or ncols == 1):
        return fig, _AxesGrid([a for row in axes for a in row])
    return fig, _AxesGrid([_AxesGrid(row) for row in axes])

def _delegate(name):
    def call(*args, **kw):
        return getattr(gca(), name)(*args, **kw)
    call.__name__ = name
    return call

for _name in ('plot', 'scatter', 'bar', 'barh', 'hist', 'pie', 'fill_between', 'errorbar', 'step', 'axhline', 'axvline', 'text', 'annotate', 'grid', 'legend', 'tick_params'):
    globals()[_name] = _delegate(_name)

def title(t, **kw): gca().set_title(t)
def xlabel(t, **kw): gca().set_xlabel(t)
def ylabel(t, **kw): gca().set_ylabel(t)
def xlim(*a, **kw): gca().set_xlim(*a, **kw)
def ylim(*a, **kw): gca().set_ylim(*a, **kw)
def xticks(ticks=None, labels=None, rotation=None, **kw):
    ax = gca()
    if ticks is not None: ax.set_xticks(ticks, labels)
    if rotation is not None: ax._xrotation = float(rotation) if _num(rotation) is not None else 90.0
def yticks(ticks=None, labels=None, **kw):
    if ticks is not None: gca().set_yticks(ticks, labels)
def suptitle(t, **kw): gcf().suptitle(t)
def tight_layout(*a, **k): pass
def savefig(fname, **kw): gcf().savefig(fname, **kw)
def style_use(*a, **k): pass
def colorbar(*a, **k): return _Stub()
def axis(*a, **k): pass
def ion(): pass
def ioff(): pass

def show(*a, **k):
    for fig in list(_figures):
        if fig.axes and not fig._saved:
            _show_figure(fig)
    close('all')

def close(fig=None):
    if fig is None or fig == 'all':
        if fig == 'all':
            _figures.clear()
        elif _current[0] in _figures:
            _figures.remove(_current[0])
        _current[0] = None
        return
    if fig in _figures:
        _figures.remove(fig)

def clf():
    fig = gcf()
    fig.axes = []
    fig._saved = False

def _parley_flush():
    """Saves the figures the code drew but neither showed nor saved (a notebook shows them too)."""
    for fig in list(_figures):
        if fig.axes and not fig._saved and any(ax._series or ax._lines or ax._texts for ax in fig.axes):
            _show_figure(fig)
    _figures.clear()
    _current[0] = None
    _shown[0] = 0

class style:
    available = ['default']
    @staticmethod
    def use(*a, **k): pass
    @staticmethod
    def context(*a, **k):
        import contextlib
        return contextlib.nullcontext()
`;

/** The `matplotlib` package itself: `use()`, `rcParams`, and `pyplot` as its submodule. */
export const MATPLOTLIB_INIT_PY = String.raw`
"""Parley's offline stand-in for matplotlib: only matplotlib.pyplot, drawn as SVG (see pyplot's docstring)."""
__version__ = '0+parley.svg'
def use(*args, **kwargs):
    pass
def get_backend():
    return 'svg'
from matplotlib.pyplot import rcParams
`;
