import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../platform/log';
import { createPythonSandbox, PythonToolError, type PythonSandbox } from './python-sandbox';

const SLOW = 180_000;
const LIMITS = { timeoutMs: 60_000, memoryMb: 256 };
const OPTIONS = { space: 'chat-1', files: [], outputLimit: 20_000, maxFiles: 10, maxFileBytes: 5 * 1024 * 1024 };
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('running code cells in the Python sandbox', () => {
  let sandbox: PythonSandbox;
  let server: Server;
  let hits = 0;
  let url = '';

  beforeAll(async () => {
    sandbox = createPythonSandbox({ log: createLogger({ level: 'silent', stdout: false }).log });
    // A raw TCP listener: it counts any connection (HTTP, a WebSocket upgrade, a bare socket).
    server = createServer((socket) => {
      hits += 1;
      socket.end('HTTP/1.0 200 OK\r\n\r\nreached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await sandbox.warm();
  }, SLOW);
  afterAll(async () => {
    await sandbox.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('prints, answers the last expression, and keeps variables between runs of one namespace', async () => {
    const first = await sandbox.run('x = 21\nprint("hello")\nx * 2', OPTIONS, LIMITS);
    expect(first).toMatchObject({ stdout: 'hello\n', result: '42', error: null, files: [] });
    const second = await sandbox.run('x + 1', OPTIONS, LIMITS);
    expect(second.result).toBe('22');
    const other = await sandbox.run('x', { ...OPTIONS, space: 'chat-2' }, LIMITS);
    expect(other.error).toMatch(/NameError: name 'x' is not defined/);
  }, SLOW);

  it('reads the given files read-only and hands back the files the code writes', async () => {
    const files = [{ name: 'sales.csv', bytes: new TextEncoder().encode('month,amount\nJan,3\nFeb,5\n') }];
    const ran = await sandbox.run(
      `import csv
rows = list(csv.DictReader(open('sales.csv')))
total = sum(int(r['amount']) for r in rows)
with open('total.txt', 'w') as f:
    f.write(str(total))
try:
    open('sales.csv', 'w').write('changed')
    print('overwrote')
except OSError as e:
    print('read-only')
total`,
      { ...OPTIONS, files },
      LIMITS,
    );
    expect(ran.error).toBeNull();
    expect(ran.stdout).toContain('read-only');
    expect(ran.result).toBe('8');
    expect(ran.files.map((f) => f.name)).toEqual(['total.txt']);
    expect(text(ran.files[0]!.bytes)).toBe('8');
    // The next run starts from its own files only.
    const next = await sandbox.run('import os\nsorted(os.listdir("."))', OPTIONS, LIMITS);
    expect(next.result).toBe('[]');
  }, SLOW);

  it('draws a matplotlib chart as SVG with no network', async () => {
    const ran = await sandbox.run(
      `import matplotlib.pyplot as plt
plt.bar(['Jan', 'Feb', 'Mar'], [3, 5, 2], label='sales')
plt.title('Sales')
plt.legend()
plt.savefig('sales.png')
plt.figure()
plt.plot([1, 2, 3], [2, 4, 1], 'o--')
plt.show()`,
      OPTIONS,
      LIMITS,
    );
    expect(ran.error).toBeNull();
    expect(ran.stderr).toContain('saved sales.svg');
    expect(ran.files.map((f) => f.name).sort()).toEqual(['figure-1.svg', 'sales.svg']);
    const svg = text(ran.files.find((f) => f.name === 'sales.svg')!.bytes);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('>Sales</text>');
    expect(svg).toContain('>Feb</text>');
    expect((svg.match(/<rect /g) ?? []).length).toBeGreaterThan(4);
  }, SLOW);

  it('reaches no network: sockets, urllib, fetch and package loading all fail and nothing arrives', async () => {
    const ran = await sandbox.run(
      `results = []
def attempt(name, fn):
    try:
        fn()
        results.append(name + ':open')
    except BaseException as e:
        results.append(name + ':blocked')
import socket, urllib.request
def talk():
    s = socket.create_connection(('127.0.0.1', ${new URL(url).port}), timeout=2)
    s.sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')
    if not s.recv(100):
        raise OSError('nothing came back')
attempt('socket', talk)
attempt('urllib', lambda: urllib.request.urlopen('${url}', timeout=2).read())
attempt('js-fetch', lambda: __import__('js').fetch('${url}'))
attempt('pyfetch', lambda: __import__('pyodide.http').http.open_url('${url}'))
attempt('micropip', lambda: __import__('micropip'))
attempt('numpy', lambda: __import__('numpy'))
attempt('loadPackage', lambda: __import__('pyodide_js').loadPackage('numpy'))
print(','.join(results))`,
      OPTIONS,
      LIMITS,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(ran.stdout.trim().split(',').filter((r) => !r.endsWith(':blocked'))).toEqual([]);
    expect(hits).toBe(0);
  }, SLOW);

  it('stops a runaway loop at its time limit and answers the next run from a fresh worker', async () => {
    const started = Date.now();
    await expect(sandbox.run('while True:\n    pass', OPTIONS, { ...LIMITS, timeoutMs: 1500 })).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000);
    const after = await sandbox.run('1 + 1', OPTIONS, LIMITS);
    expect(after.result).toBe('2');
  }, SLOW);

  it('refuses memory past the limit', async () => {
    const ran = sandbox.run('blocks = [bytearray(50 * 1024 * 1024) for _ in range(20)]', OPTIONS, { ...LIMITS, memoryMb: 128 });
    await expect(ran).rejects.toBeInstanceOf(PythonToolError);
    await expect(ran).rejects.toMatchObject({ kind: 'memory' });
    expect((await sandbox.run('"alive"', OPTIONS, LIMITS)).result).toBe("'alive'");
  }, SLOW);

  it('cannot read the host files or reach Node', async () => {
    const ran = await sandbox.run(
      `out = []
for name, fn in [('passwd', lambda: open('/etc/passwd').read()), ('environ', lambda: open('/proc/self/environ').read()),
                 ('here', lambda: open('${process.cwd()}/package.json').read()), ('js', lambda: __import__('js').process.env)]:
    try:
        fn(); out.append(name + ':open')
    except BaseException:
        out.append(name + ':blocked')
print(','.join(out))`,
      OPTIONS,
      LIMITS,
    );
    expect(ran.stdout.trim()).toBe('passwd:blocked,environ:blocked,here:blocked,js:blocked');
  }, SLOW);
});
