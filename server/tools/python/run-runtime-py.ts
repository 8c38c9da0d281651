/**
 * Python run inside the Pyodide sandbox once per worker: runs a code cell in a namespace kept
 * between runs (a notebook's state), capturing what it prints (cut at a limit) and the value of
 * its last expression, and installs Parley's offline `matplotlib.pyplot` (charts-py.ts).
 */
export const RUN_RUNTIME_PY = String.raw`
import io, json, os, sys, traceback

_parley_spaces = {}
_PARLEY_MAX_SPACES = 8

class _ParleyCapped(io.TextIOBase):
    def __init__(self, limit):
        self._parts, self._size, self._limit, self.cut = [], 0, limit, False
    def writable(self):
        return True
    def write(self, s):
        if not isinstance(s, str):
            s = str(s)
        room = self._limit - self._size
        if room > 0:
            self._parts.append(s[:room])
            self._size += min(len(s), room)
        if len(s) > max(room, 0):
            self.cut = True
        return len(s)
    def value(self):
        text = ''.join(self._parts)
        return text + ('\n[output cut at %d characters]' % self._limit if self.cut else '')

def _parley_space(key, fresh):
    ns = _parley_spaces.pop(key, None)
    if ns is None or fresh:
        while len(_parley_spaces) >= _PARLEY_MAX_SPACES:
            _parley_spaces.pop(next(iter(_parley_spaces)))
        ns = {'__name__': '__main__', '__builtins__': __builtins__}
    _parley_spaces[key] = ns
    return ns

def _parley_traceback(error):
    frames = traceback.extract_tb(error.__traceback__)
    mine = [f for f in frames if f.filename == '<cell>']
    lines = ['Traceback (most recent call last):\n'] if mine else []
    lines += traceback.format_list(mine)
    lines += traceback.format_exception_only(type(error), error)
    return ''.join(lines).rstrip()

async def _parley_exec(space, code, limit, fresh):
    from pyodide.code import eval_code_async
    ns = _parley_space(space, fresh)
    out, err = _ParleyCapped(limit), _ParleyCapped(limit)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    result = error = None
    try:
        value = await eval_code_async(code, ns, filename='<cell>')
        if value is not None:
            result = repr(value)
            if len(result) > limit:
                result = result[:limit] + '…'
    except BaseException as e:
        error = _parley_traceback(e)
    finally:
        pyplot = sys.modules.get('matplotlib.pyplot')
        try:
            if pyplot is not None and hasattr(pyplot, '_parley_flush'):
                pyplot._parley_flush()
        except BaseException as e:
            error = error or _parley_traceback(e)
        sys.stdout, sys.stderr = saved
    return json.dumps({'stdout': out.value(), 'stderr': err.value(), 'result': result, 'error': error})

def _parley_install_charts(pyplot_source, init_source):
    import site
    base = os.path.join(site.getsitepackages()[0], 'matplotlib')
    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, '__init__.py'), 'w') as f:
        f.write(init_source)
    with open(os.path.join(base, 'pyplot.py'), 'w') as f:
        f.write(pyplot_source)
`;
