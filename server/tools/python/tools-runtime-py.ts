/**
 * Python run inside the Pyodide sandbox once per worker: reads function specs from a
 * `class Tools` (signatures, type hints, docstrings, via inspect/ast) and calls its methods.
 */
export const TOOLS_RUNTIME_PY = String.raw`
import ast, inspect, json, re, types, typing

_parley_cache = {}

def _parley_syntax(source):
    try:
        ast.parse(source, '<tool>')
    except SyntaxError as e:
        where = f" (line {e.lineno})" if e.lineno else ""
        return f"{type(e).__name__}: {e.msg}{where}"
    return None

def _parley_load(key, source):
    inst = _parley_cache.get(key)
    if inst is None:
        ns = {'__name__': 'parley_tool'}
        exec(compile(source, '<tool>', 'exec'), ns)
        cls = ns.get('Tools')
        if not isinstance(cls, type):
            raise ValueError('The source must define a class named Tools')
        inst = cls()
        _parley_cache.clear() if len(_parley_cache) > 50 else None
        _parley_cache[key] = inst
    return inst

_PRIMS = {str: 'string', int: 'integer', float: 'number', bool: 'boolean', dict: 'object', list: 'array'}

def _parley_schema(tp):
    if tp is inspect.Parameter.empty or tp is typing.Any or tp is None:
        return {}
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return _parley_schema(rest[0])
        return {'anyOf': [_parley_schema(a) for a in rest]}
    if origin is typing.Literal:
        return {'enum': list(args)}
    if origin in (list, tuple, set, frozenset) or tp in (list, tuple, set, frozenset):
        schema = {'type': 'array'}
        if args:
            schema['items'] = _parley_schema(args[0])
        return schema
    if origin is dict or tp is dict:
        return {'type': 'object'}
    if tp in _PRIMS:
        return {'type': _PRIMS[tp]}
    return {}

_SECTION = re.compile(r'^(Args|Arguments|Parameters|Params|Returns|Return|Raises|Yields|Examples?|Notes?)\s*:\s*$')

def _parley_docs(doc):
    summary, params, in_args, done = [], {}, False, False
    for raw in doc.splitlines():
        line = raw.strip()
        m = re.match(r'^:param\s+(?:[\w\[\], ]+\s+)?(\w+)\s*:\s*(.*)$', line)
        if m:
            params[m.group(1)] = m.group(2)
            done = True
            continue
        if line.startswith(':'):
            done = True
            continue
        s = _SECTION.match(line)
        if s:
            in_args = s.group(1) in ('Args', 'Arguments', 'Parameters', 'Params')
            done = True
            continue
        if in_args and line:
            m = re.match(r'^(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$', line)
            if m:
                params[m.group(1)] = m.group(2)
            continue
        if not done:
            summary.append(line)
    return ' '.join(x for x in summary if x).strip(), params

def _parley_jsonable(value):
    try:
        json.dumps(value)
        return True
    except Exception:
        return False

def _parley_methods(inst):
    seen, out = set(), []
    for klass in type(inst).__mro__:
        if klass is object:
            continue
        for name, member in vars(klass).items():
            if name.startswith('_') or name in seen:
                continue
            seen.add(name)
            fn = getattr(inst, name, None)
            if inspect.ismethod(fn) or inspect.isfunction(fn):
                out.append((name, fn))
    return out

def _parley_specs(key, source):
    error = _parley_syntax(source)
    if error:
        return json.dumps({'syntax_error': error})
    inst = _parley_load(key, source)
    specs = []
    for name, fn in _parley_methods(inst):
        sig = inspect.signature(fn)
        try:
            hints = typing.get_type_hints(fn)
        except Exception:
            hints = {}
        summary, pdocs = _parley_docs(inspect.getdoc(fn) or '')
        props, required = {}, []
        for p in sig.parameters.values():
            if p.name.startswith('__') or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            schema = dict(_parley_schema(hints.get(p.name, p.annotation)))
            if p.name in pdocs:
                schema['description'] = pdocs[p.name]
            if p.default is p.empty:
                required.append(p.name)
            elif p.default is not None and _parley_jsonable(p.default):
                schema['default'] = p.default
            props[p.name] = schema
        params = {'type': 'object', 'properties': props}
        if required:
            params['required'] = required
        specs.append({'name': name, 'description': summary or name, 'parameters': params})
    return json.dumps({'specs': specs})

async def _parley_call(key, source, name, args_json, user_json):
    inst = _parley_load(key, source)
    fn = getattr(inst, name, None) if not name.startswith('_') else None
    if fn is None or not callable(fn):
        raise ValueError(f'Unknown function {name}')
    kwargs = json.loads(args_json) or {}
    sig = inspect.signature(fn)
    open_kwargs = any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values())
    accepted = {k: v for k, v in kwargs.items() if not k.startswith('__') and (open_kwargs or k in sig.parameters)}
    if '__user__' in sig.parameters:
        accepted['__user__'] = json.loads(user_json)
    result = fn(**accepted)
    if inspect.isawaitable(result):
        result = await result
    if isinstance(result, str):
        return result
    try:
        return json.dumps(result, default=str)
    except Exception:
        return str(result)
`;
