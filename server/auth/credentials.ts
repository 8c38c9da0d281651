import type { Request } from 'express';

/** The credential a request carries: Bearer header, `x-api-key`, or the `token` cookie. */
export function readCredential(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match?.[1]) return match[1].trim();
  }
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.startsWith('sk-')) return apiKey.trim();
  const cookie = (req.cookies as Record<string, unknown> | undefined)?.token;
  return typeof cookie === 'string' && cookie.length > 0 ? cookie : undefined;
}
