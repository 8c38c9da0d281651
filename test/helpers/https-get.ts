import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';

/** One HTTPS GET that accepts the self-signed certificate: status, body and the certificate's SHA-256 fingerprint. */
export function httpsGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, rejectUnauthorized: false, agent: false, timeout: 3000 }, (res) => {
      const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, fingerprint }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}
