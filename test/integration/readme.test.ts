import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ENV_NAMES } from '../../server/platform/env';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Every file of the repository's own tree (no dependencies, builds or test output), relative to the root. */
function repositoryFiles(dir = root): string[] {
  const skipped = new Set(['node_modules', 'dist', 'release', 'test-results', 'playwright-report', '.git', 'coverage']);
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    // Build output is skipped at the root only: test/dist/ (the built-service suite) is source.
    if (skipped.has(name) && (dir === root || name !== 'dist')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...repositoryFiles(full));
    else out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out;
}
const files = repositoryFiles();
const folders = new Set(files.flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

/** The documents: the README, docs/, and every CONTEXT.md beside the code. */
const documents = ['README.md', ...files.filter((f) => (f.startsWith('docs/') && f.endsWith('.md')) || f.endsWith('/CONTEXT.md'))];

/**
 * The one web address the documents may link to: the project's own repository (the update feed's
 * `publish` owner/repo in electron-builder.yml). Everything else they point to lives in the
 * repository (relative links) or in the running service (`/api/openapi.json`).
 */
function projectHome(): string {
  const config = yaml.load(read('electron-builder.yml')) as { publish: { owner: string; repo: string } };
  return `https://github.com/${config.publish.owner}/${config.publish.repo}`;
}

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Markdown without its fenced code blocks. */
const withoutFences = (markdown: string) => markdown.replace(/^ *```[\s\S]*?^ *```/gm, '');

/** The anchors of a Markdown file's headings. */
function anchorsOf(markdown: string): Set<string> {
  return new Set([...withoutFences(markdown).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));
}

/** A document's links: markdown links, autolinks and bare web addresses outside code. */
export function linksOf(markdown: string): string[] {
  const prose = withoutFences(markdown).replace(/`[^`\n]*`/g, '');
  const links = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const autolinks = [...prose.matchAll(/<(https?:\/\/[^>\s]+)>/g)].map((m) => m[1]!);
  const withoutLinks = prose.replace(/\]\([^)]*\)/g, ']').replace(/<https?:\/\/[^>\s]+>/g, '');
  const bare = [...withoutLinks.matchAll(/https?:\/\/[^\s)>\]]+/g)].map((m) => m[0]);
  return [...links, ...autolinks, ...bare];
}

/** Why a link of `document` leaves the repository or points nowhere, or undefined when it lands. */
function problemOf(link: string, document: string): string | undefined {
  if (/^https?:\/\//i.test(link)) {
    const home = projectHome();
    return link === home || link.startsWith(`${home}/`) ? undefined : `${link} is outside the repository (only ${home} may be linked)`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return `${link} is not a link into the repository`;
  const [file, anchor] = link.split('#') as [string, string | undefined];
  const target = file === '' ? path.join(root, document) : path.resolve(root, path.dirname(document), decodeURIComponent(file));
  if (!target.startsWith(root + path.sep)) return `${link} points outside the repository`;
  if (!existsSync(target)) return `${link} does not exist in the repository`;
  if (anchor === undefined) return undefined;
  if (!target.endsWith('.md')) return `${link}: only Markdown files have headings to link to`;
  return anchorsOf(readFileSync(target, 'utf8')).has(anchor) ? undefined : `#${anchor} is not a heading of ${path.relative(root, target)}`;
}

/** Folders that exist only at run time or after a build (the data dir's, build output): not paths of the repository. */
const RUNTIME_FOLDERS = new Set(['uploads', 'indexes', 'logs', 'backups', 'models', 'data', 'lan-tls', 'dist', 'release', 'test-results', 'playwright-report', 'node_modules']);

/**
 * Paths the prose names in backticks (`server/start.ts`, `ingest/queue.ts`, `test/e2e/`): each must
 * be a file or folder of the repository, from its root, from `server/`, or as the end of a path
 * (a file named within its domain). Placeholders (`<domain>.routes.ts`, `*.repo.ts`) and folders
 * of the data dir or the build (`uploads/`, `dist/`) are not paths of the repository.
 */
function missingPaths(markdown: string): string[] {
  const named = [...withoutFences(markdown).matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  const paths = named.filter(
    (p) => p.includes('/') && /^[\w./-]+$/.test(p) && /\.(ts|tsx|mjs|js|md|yml|json)$|\/$/.test(p) && !/^(https?:|\/|\.\.\/)/.test(p) && !RUNTIME_FOLDERS.has(p.split('/')[0]!),
  );
  return paths.filter((p) => {
    const clean = p.replace(/\/$/, '');
    const isFolder = p.endsWith('/');
    const exists = (candidate: string) => (isFolder ? folders.has(candidate) : files.includes(candidate) || folders.has(candidate));
    if (exists(clean) || exists(`server/${clean}`)) return false;
    return !(isFolder ? [...folders].some((f) => f.endsWith(`/${clean}`)) : files.some((f) => f.endsWith(`/${clean}`)));
  });
}

describe('README and docs/', () => {
  it('link only into the repository (files and headings that exist) or to the project’s own repository', () => {
    const problems = documents.flatMap((document) => linksOf(read(document)).map((link) => problemOf(link, document)).filter(Boolean).map((p) => `${document}: ${p}`));
    expect(documents.length).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('the link check is real: it refuses outside sites, missing files, unknown headings and escapes from the repository', () => {
    const sample = '[a](https://example.com/docs) [b](../shared/spec/interface.md) [c](#no-such-heading) [d](docs/operations.md#no-such-heading) <http://example.org> see https://other.example/x\n```\nhttps://inside.code.block\n```\n`http://127.0.0.1:8080`';
    const links = linksOf(sample);
    expect(links).toEqual(['https://example.com/docs', '../shared/spec/interface.md', '#no-such-heading', 'docs/operations.md#no-such-heading', 'http://example.org', 'https://other.example/x']);
    expect(links.every((l) => problemOf(l, 'README.md') !== undefined)).toBe(true);
    expect(problemOf('docs/operations.md#postgresql-backups', 'README.md')).toBeUndefined();
    expect(problemOf('../server/retrieval/CONTEXT.md', 'docs/ARCHITECTURE.md')).toBeUndefined();
    expect(problemOf('#the-spine', 'docs/ARCHITECTURE.md')).toBeUndefined();
    expect(problemOf(`${projectHome()}/releases`, 'README.md')).toBeUndefined();
  });

  it('name only files and folders that exist (a moved file fails here until the map follows it)', () => {
    const problems = documents.flatMap((document) => missingPaths(read(document)).map((p) => `${document}: ${p}`));
    expect(problems).toEqual([]);
    expect(missingPaths('`server/start.ts` `ingest/no-such-file.ts` `test/e2e/` `<domain>.routes.ts` `uploads/` `server/gone/`')).toEqual(['ingest/no-such-file.ts', 'server/gone/']);
  });

  it('the README stays a front door: at most 250 lines, linking every document in docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const doc of files.filter((f) => f.startsWith('docs/') && f.endsWith('.md'))) expect(readme).toContain(`](${doc})`);
  });

  it('say which Node versions the service, the tests and the desktop app need, as package.json and electron do', () => {
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    const electron = JSON.parse(read('node_modules/electron/package.json')) as { engines: { node: string } };
    const desktopNode = electron.engines.node.replace(/^[>= ]+/, '').replace(/\.0$/, '');
    for (const document of ['README.md', 'docs/testing.md']) {
      expect(read(document)).toContain(`Node ${pkg.engines.node.replace('>=', '')}`);
      expect(read(document)).toContain(`Node ${desktopNode}`);
    }
    expect(read('docs/desktop.md')).toContain(`Node ${desktopNode}`);
  });

  it('document every boot setting the service reads, and only settings that exist', () => {
    const configuration = read('docs/configuration.md');
    const table = configuration.slice(configuration.indexOf('## Boot settings'), configuration.indexOf('## Where things are kept'));
    const documented = new Set([...table.matchAll(/`(PARLEY_[A-Z0-9_]+)`/g)].map((m) => m[1]!));
    expect([...Object.values(ENV_NAMES)].filter((name) => !documented.has(name))).toEqual([]);
    // Settings read outside the boot configuration (the desktop shell's) are found in the code that reads them.
    const code = files.filter((f) => /^(server|main|scripts)\/.*\.(ts|mjs)$/.test(f) && !f.endsWith('.test.ts')).map(read).join('\n');
    expect([...documented].filter((name) => !code.includes(`${name}`))).toEqual([]);
    // The README's short table is a part of the full one.
    const readmeSettings = [...read('README.md').matchAll(/^\|[^|\n]*\| `(PARLEY_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
    expect(readmeSettings.length).toBeGreaterThan(3);
    expect(readmeSettings.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('name only npm scripts that exist', () => {
    const scripts = new Set(Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts));
    const named = documents.flatMap((document) => [...read(document).matchAll(/\bnpm run ([a-z][\w:-]*)/g)].map((m) => ({ document, name: m[1]! })));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ name }) => !scripts.has(name)).map(({ document, name }) => `${document}: npm run ${name}`)).toEqual([]);
  });

  it('list every system package CI installs, with a command that works as root', () => {
    const packages = /^PACKAGES="([^"]+)"/m.exec(read('.ci/run'))?.[1]?.split(/\s+/) ?? [];
    expect(packages.length).toBeGreaterThan(3);
    const testing = read('docs/testing.md');
    const asRoot = /^apt-get install -y (.+?)\s+# as root$/m.exec(testing)?.[1]?.split(/\s+/) ?? [];
    expect(asRoot.sort()).toEqual([...packages].sort());
    expect(testing).toMatch(/^sudo apt-get install -y /m);
  });

  it('map every server folder and every mounted prefix in ARCHITECTURE.md', () => {
    const architecture = read('docs/ARCHITECTURE.md');
    const domains = readdirSync(path.join(root, 'server')).filter((name) => statSync(path.join(root, 'server', name)).isDirectory());
    expect(domains.filter((d) => !architecture.includes(`\`${d}/\``))).toEqual([]);
    const mounted = [...read('server/routes.ts').matchAll(/app\.use\(\s*'([^']+)'/g)].map((m) => m[1]!);
    expect(mounted.length).toBeGreaterThan(20);
    expect([...new Set(mounted)].filter((prefix) => !architecture.includes(`\`${prefix}\``))).toEqual([]);
  });

  it('give every larger server domain a CONTEXT.md (a glossary and its decisions)', () => {
    const named = ['completions', 'permissions', 'auth', 'chats', 'lan'];
    const larger = readdirSync(path.join(root, 'server')).filter((d) => !['platform', 'contracts'].includes(d) && files.filter((f) => f.startsWith(`server/${d}/`) && /\.tsx?$/.test(f) && !f.endsWith('.test.ts')).length >= 8);
    expect(larger.length).toBeGreaterThan(5);
    expect([...new Set([...named, ...larger])].filter((d) => !existsSync(path.join(root, 'server', d, 'CONTEXT.md')))).toEqual([]);
  });
});
