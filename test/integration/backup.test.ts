import { spawnSync } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { restoreBackup } from '../../server/backup';
import { checkIntegrity } from '../../server/platform/db/integrity';
import { buildUser, signupAdmin } from '../helpers/builders';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';

const root = path.resolve(import.meta.dirname, '../..');
const cleanup: string[] = [];
afterEach(() => {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function zipOf(target: string, entries: Record<string, Buffer>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(data, name);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(target));
}

/** Rewrites bytes of an archive in place (same length), to forge names a ZIP writer refuses. */
function patchBytes(file: string, from: string, to: string): void {
  const data = readFileSync(file).toString('latin1');
  writeFileSync(file, Buffer.from(data.split(from).join(to), 'latin1'));
}

describe('backups', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('writes a snapshot an admin can list and download, and refuses others', async () => {
    server = await startTestServer();
    const admin = await signupAdmin(server);
    const user = await buildUser(server, admin, 'user');
    expect((await server.as(user.token).post('/api/v1/backups')).status).toBe(403);
    expect((await server.anon.get('/api/v1/backups')).status).toBe(401);

    const created = await server.as(admin.token).post('/api/v1/backups');
    expect(created.status).toBe(200);
    expect(created.body.name).toMatch(/^parley-backup-\d{8}-\d{6}\.zip$/);
    expect(created.body.size).toBeGreaterThan(1000);
    const list = await server.as(admin.token).get('/api/v1/backups');
    expect(list.body.map((b: { name: string }) => b.name)).toContain(created.body.name);
    const download = await fetch(`${server.url}/api/v1/backups/${created.body.name}/download`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await download.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
    expect((await server.as(admin.token).get('/api/v1/backups/..%2Fparley.db/download')).status).toBe(404);
    expect((await server.as(admin.token).delete(`/api/v1/backups/${created.body.name}`)).body).toBe(true);
    expect((await server.as(admin.token).get('/api/v1/backups')).body).toEqual([]);
  });

  it('writes backups readable by this OS account only (0600 in a 0700 folder), an --out file it overwrites too', async () => {
    server = await startTestServer();
    const admin = await signupAdmin(server);
    const created = await server.as(admin.token).post('/api/v1/backups');
    expect(created.status).toBe(200);
    expect(statSync(path.join(server.dataDir, 'backups', created.body.name)).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(server.dataDir, 'backups')).mode & 0o777).toBe(0o700);
    // The command line's --out: a new file, and an old world-readable one it replaces.
    const out = path.join(server.dataDir, 'cli-backup.zip');
    await server.services.backups.create(out);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    writeFileSync(out, 'old', { mode: 0o644 });
    chmodSync(out, 0o644);
    await server.services.backups.create(out);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it('restores into a new data dir with accounts, uploads and indexes intact', async () => {
    server = await startTestServer({ keepDataDir: true });
    cleanup.push(server.dataDir);
    const admin = await signupAdmin(server);
    const user = await buildUser(server, admin, 'user');
    mkdirSync(path.join(server.dataDir, 'uploads', 'files'), { recursive: true });
    writeFileSync(path.join(server.dataDir, 'uploads', 'files', 'report.txt'), 'quarterly numbers');
    writeFileSync(path.join(server.dataDir, 'indexes', 'kb-1.idx'), 'index bytes');
    const note = (await server.as(user.token).post('/api/v1/notes/create', { title: 'Kept in backups', data: { content: { md: 'Notes travel with the database.' } } })).body;
    expect((await server.as(user.token).post('/api/v1/memories/add', { content: 'I keep backups on Fridays' })).status).toBe(200);
    const created = await server.as(admin.token).post('/api/v1/backups');
    const archive = path.join(server.dataDir, 'backups', created.body.name);
    const target = tempDataDir('parley-restored-');
    rmSync(target, { recursive: true });
    cleanup.push(target);
    await server.close();
    server = undefined;

    const result = await restoreBackup({ archive, dataDir: target });
    expect(result.files).toBeGreaterThanOrEqual(3);
    expect(await checkIntegrity(path.join(target, 'parley.db'))).toBe('ok');
    expect(readFileSync(path.join(target, 'uploads', 'files', 'report.txt'), 'utf8')).toBe('quarterly numbers');
    expect(readFileSync(path.join(target, 'indexes', 'kb-1.idx'), 'utf8')).toBe('index bytes');

    server = await startTestServer({ dataDir: target });
    const signin = await server.anon.post('/auths/signin', { email: user.email, password: user.password });
    expect(signin.status).toBe(200);
    expect(signin.body.id).toBe(user.id);
    // Notes and memories came back with the database.
    const restored = await server.as(signin.body.token).get(`/api/v1/notes/${note.id}`);
    expect(restored.body.data.content.md).toBe('Notes travel with the database.');
    expect((await server.as(signin.body.token).get('/api/v1/memories/')).body.map((m: { content: string }) => m.content)).toEqual(['I keep backups on Fridays']);
  });

  it('refuses to overwrite a data dir without --force, and keeps the old one beside it with force', async () => {
    server = await startTestServer({ keepDataDir: true });
    cleanup.push(server.dataDir);
    await signupAdmin(server);
    const info = await server.services.backups.create();
    const archive = path.join(server.dataDir, 'backups', info.name);
    const other = tempDataDir('parley-occupied-');
    cleanup.push(other);
    writeFileSync(path.join(other, 'parley.db'), 'old');
    writeFileSync(path.join(other, 'parley.db-wal'), 'old wal');
    // What a backup does not carry stays with the data dir: secret store, logs, other backups, model files, LAN certificate.
    const kept = ['secrets.enc', 'secrets.key', 'secret-store', 'logs/parley.log', 'backups/pre-1-to-2-20261128-090000.zip', 'models/tiny.gguf', 'lan-tls/lan-certificate.pem'];
    for (const file of kept) {
      mkdirSync(path.dirname(path.join(other, file)), { recursive: true });
      writeFileSync(path.join(other, file), `kept ${file}`);
    }
    await expect(restoreBackup({ archive, dataDir: other })).rejects.toThrow(/--force/);
    expect(readFileSync(path.join(other, 'parley.db'), 'utf8')).toBe('old');
    const forced = await restoreBackup({ archive, dataDir: other, force: true });
    expect(forced.previous).toBeDefined();
    cleanup.push(forced.previous as string);
    expect(readFileSync(path.join(forced.previous as string, 'parley.db'), 'utf8')).toBe('old');
    expect(readFileSync(path.join(forced.previous as string, 'parley.db-wal'), 'utf8')).toBe('old wal');
    expect(existsSync(path.join(other, 'parley.db-wal'))).toBe(false);
    expect(await checkIntegrity(path.join(other, 'parley.db'))).toBe('ok');
    for (const file of kept) expect(readFileSync(path.join(other, file), 'utf8')).toBe(`kept ${file}`);
  });

  it('backs up from the command line while the service runs', async () => {
    server = await startTestServer();
    await signupAdmin(server);
    const out = path.join(server.dataDir, 'cli-backup.zip');
    const run = spawnSync(process.execPath, [path.join(root, 'dist/server/backup/cli.js'), 'backup', '--data-dir', server.dataDir, '--out', out], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Backup written/);
    expect(existsSync(out)).toBe(true);
  });
});

describe('restoring hostile archives', () => {
  it('refuses entries that escape the data dir and leaves nothing behind', async () => {
    const dir = tempDataDir('parley-hostile-');
    cleanup.push(dir);
    const archive = path.join(dir, 'evil.zip');
    await zipOf(archive, { 'manifest.json': Buffer.from('{"format":"parley-backup","version":1}'), 'uploads/AA/BB/escaped.txt': Buffer.from('x') });
    patchBytes(archive, 'AA/BB', '../..');
    const target = path.join(dir, 'data');
    await expect(restoreBackup({ archive, dataDir: target })).rejects.toThrow(/Unsafe path|invalid relative path/);
    expect(existsSync(path.join(dir, 'escaped.txt'))).toBe(false);
    expect(existsSync(target)).toBe(false);
  });

  it('stops a zip bomb at the size limit while inflating', async () => {
    const dir = tempDataDir('parley-bomb-');
    cleanup.push(dir);
    const archive = path.join(dir, 'bomb.zip');
    await zipOf(archive, { 'manifest.json': Buffer.from('{"format":"parley-backup","version":1}'), 'parley.db': Buffer.alloc(40 * 1024 * 1024) });
    expect(readFileSync(archive).length).toBeLessThan(1024 * 1024);
    await expect(restoreBackup({ archive, dataDir: path.join(dir, 'data'), maxBytes: 5 * 1024 * 1024 })).rejects.toThrow(/expands beyond/);
    expect(existsSync(path.join(dir, 'data'))).toBe(false);
  });

  it('refuses an archive that is not a Parley backup', async () => {
    const dir = tempDataDir('parley-notbackup-');
    cleanup.push(dir);
    const archive = path.join(dir, 'other.zip');
    await zipOf(archive, { 'readme.txt': Buffer.from('hello') });
    await expect(restoreBackup({ archive, dataDir: path.join(dir, 'data') })).rejects.toThrow(/not a Parley backup/);
  });
});
