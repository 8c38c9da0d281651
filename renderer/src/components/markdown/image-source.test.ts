import { describe, expect, it } from 'vitest';
import { isSafeImageSource } from './image-source';

const page = 'http://127.0.0.1:8080/s/abc';

describe('images in Markdown never call the service’s own API', () => {
  it('refuses same-origin API paths, however they are written', () => {
    for (const src of ['/api/v1/auths/signout', 'http://127.0.0.1:8080/api/v1/auths/signout', '//127.0.0.1:8080/api/v1/auths/signout', '../api/v1/auths/signout', '/API/v1/auths/signout', '/%61pi/v1/auths/signout', '//127.0.0.1:8080//api/x', '/v1/models', '/ollama/api/tags']) {
      expect(isSafeImageSource(src, page), src).toBe(false);
    }
  });

  it('keeps pictures from elsewhere and same-origin non-API files', () => {
    expect(isSafeImageSource('https://example.com/api/v1/x.png', page)).toBe(true);
    expect(isSafeImageSource('/static/logo.png', page)).toBe(true);
    expect(isSafeImageSource('data:image/png;base64,AAAA', page)).toBe(true);
  });

  it('refuses what is not an address', () => {
    expect(isSafeImageSource(undefined, page)).toBe(false);
    expect(isSafeImageSource('http://[bad', page)).toBe(false);
  });
});
