import { describe, expect, it } from 'vitest';
import { domainFilter, urlAllowed } from './domain-filter';

describe('the admin’s site list', () => {
  it('allows every site when empty', () => {
    expect(domainFilter([]).allows('anything.example')).toBe(true);
  });

  it('limits to listed domains and their subdomains, by whole labels', () => {
    const filter = domainFilter(['example.com', '*.docs.example']);
    expect(filter.allows('example.com')).toBe(true);
    expect(filter.allows('www.example.com')).toBe(true);
    expect(filter.allows('badexample.com')).toBe(false);
    expect(filter.allows('api.docs.example')).toBe(true);
    expect(filter.allows('other.org')).toBe(false);
    expect(filter.allowed).toEqual(['example.com', 'docs.example']);
  });

  it('refuses domains marked with !, whatever else is listed', () => {
    const filter = domainFilter(['!ads.example', '!Tracker.Example.']);
    expect(filter.allows('ads.example')).toBe(false);
    expect(filter.allows('x.ads.example')).toBe(false);
    expect(filter.allows('tracker.example')).toBe(false);
    expect(filter.allows('news.example')).toBe(true);
    expect(filter.blocked).toEqual(['ads.example', 'tracker.example']);
  });

  it('reads only http(s) URLs of allowed hosts', () => {
    const filter = domainFilter(['example.com']);
    expect(urlAllowed(filter, 'https://www.example.com/a')).toBe(true);
    expect(urlAllowed(filter, 'ftp://example.com/a')).toBe(false);
    expect(urlAllowed(filter, 'not a url')).toBe(false);
  });
});
