import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/**
 * The one web address the README may link to: the project's own repository (the update feed's
 * `publish` owner/repo in electron-builder.yml). Everything else it points to lives in the
 * repository (relative links) or in the running service (`/api/openapi.json`).
 */
function projectHome(): string {
  const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as { publish: { owner: string; repo: string } };
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

/** The README's links: markdown links, autolinks and bare web addresses outside code. */
export function linksOf(markdown: string): string[] {
  const prose = markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  const links = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const autolinks = [...prose.matchAll(/<(https?:\/\/[^>\s]+)>/g)].map((m) => m[1]!);
  const withoutLinks = prose.replace(/\]\([^)]*\)/g, ']').replace(/<https?:\/\/[^>\s]+>/g, '');
  const bare = [...withoutLinks.matchAll(/https?:\/\/[^\s)>\]]+/g)].map((m) => m[0]);
  return [...links, ...autolinks, ...bare];
}

/** Why a link leaves the repository, or undefined when it stays inside. */
function problemOf(link: string, anchors: Set<string>): string | undefined {
  if (/^https?:\/\//i.test(link)) {
    const home = projectHome();
    return link === home || link.startsWith(`${home}/`) ? undefined : `${link} is outside the repository (only ${home} may be linked)`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return `${link} is not a link into the repository`;
  const [file, anchor] = link.split('#') as [string, string | undefined];
  if (file === '') return anchor !== undefined && anchors.has(anchor) ? undefined : `#${anchor} is not a heading of the README`;
  const target = path.resolve(root, decodeURIComponent(file));
  if (!target.startsWith(root + path.sep)) return `${link} points outside the repository`;
  return existsSync(target) ? undefined : `${link} does not exist in the repository`;
}

describe('README', () => {
  const anchors = new Set([...readme.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));

  it('links only into the repository (files that exist, its own headings) or to the project’s own repository', () => {
    const links = linksOf(readme);
    expect(links.length).toBeGreaterThan(0);
    expect(links.map((l) => problemOf(l, anchors)).filter(Boolean)).toEqual([]);
  });

  it('the check is real: it refuses outside sites, missing files and unknown headings', () => {
    const sample = '[a](https://example.com/docs) [b](../shared/spec/interface.md) [c](#no-such-heading) <http://example.org> see https://other.example/x\n```\nhttps://inside.code.block\n```\n`http://127.0.0.1:8080`';
    const links = linksOf(sample);
    expect(links).toEqual(['https://example.com/docs', '../shared/spec/interface.md', '#no-such-heading', 'http://example.org', 'https://other.example/x']);
    expect(links.every((l) => problemOf(l, anchors) !== undefined)).toBe(true);
    expect(problemOf('server/openapi/openapi-document.ts', anchors)).toBeUndefined();
    expect(problemOf('#api-reference', anchors)).toBeUndefined();
    expect(problemOf(`${projectHome()}/releases`, anchors)).toBeUndefined();
  });

  it('says which Node versions the service, the tests and the desktop tools need, as package.json does', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(readme).toContain(`Node ${pkg.engines.node.replace('>=', '')}`);
    expect(readme).toMatch(/Node 22\.12/);
  });
});
