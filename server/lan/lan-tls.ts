import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { badRequest } from '../platform/http/errors';
import { loadExports } from '../platform/library-exports';
import { writePrivateFile } from '../platform/private-files';
import type { SecretStore } from '../secrets';

/** Where the LAN certificate comes from: generated on first share, or supplied by an admin. */
export type LanCertificateSource = 'generated' | 'custom';

/** A certificate and its key, ready for the TLS listener. */
export interface LanTlsMaterial {
  source: LanCertificateSource;
  cert: string;
  key: string;
  /** SHA-256 fingerprint of the certificate, `AB:CD:…`, what browsers show. */
  fingerprint: string;
  /** Epoch seconds after which browsers refuse the certificate. */
  expiresAt: number;
}

/** A generated certificate lives this long (browsers remember a self-signed exception per certificate). */
const GENERATED_LIFETIME_DAYS = 825;

const keySecret = (source: LanCertificateSource) => `lan-tls-key:${source}`;

/** Checks a PEM certificate and key, and that they belong together; throws a 400 naming the problem. */
export function checkCertificatePair(certPem: string, keyPem: string): { fingerprint: string; expiresAt: number } {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw badRequest("Field 'certificate' must be a PEM certificate (-----BEGIN CERTIFICATE-----)", 'INVALID_CERTIFICATE');
  }
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw badRequest("Field 'private_key' must be an unencrypted PEM private key", 'INVALID_PRIVATE_KEY');
  }
  if (!cert.checkPrivateKey(key)) throw badRequest("Field 'private_key' does not belong to the certificate", 'CERTIFICATE_KEY_MISMATCH');
  const expiresAt = Math.floor(new Date(cert.validTo).getTime() / 1000);
  if (expiresAt * 1000 < Date.now()) throw badRequest(`The certificate expired on ${cert.validTo}`, 'CERTIFICATE_EXPIRED');
  return { fingerprint: cert.fingerprint256, expiresAt };
}

/**
 * The LAN listener's TLS certificates: the certificate (public) as a file in the data dir, its
 * private key in the SecretStore (keychain or encrypted file), never in clear text on disk.
 * The generated one is made once, with `selfsigned`, and kept across restarts so colleagues'
 * browsers keep recognising it.
 */
export function createLanTls(deps: { dataDir: string; secrets: SecretStore; addresses: () => string[] }) {
  const certFile = (source: LanCertificateSource) => path.join(deps.dataDir, 'lan-tls', `${source}-certificate.pem`);

  async function load(source: LanCertificateSource): Promise<LanTlsMaterial | undefined> {
    const file = certFile(source);
    if (!existsSync(file)) return undefined;
    const key = await deps.secrets.get(keySecret(source));
    if (!key) return undefined;
    const cert = readFileSync(file, 'utf8');
    try {
      return { source, cert, key, ...checkCertificatePair(cert, key) };
    } catch {
      return undefined;
    }
  }

  async function store(source: LanCertificateSource, cert: string, key: string): Promise<void> {
    await deps.secrets.set(keySecret(source), key);
    writePrivateFile(certFile(source), cert);
  }

  async function generate(): Promise<LanTlsMaterial> {
    const { generate: selfSigned } = await loadExports(import('selfsigned'), 'selfsigned', 'generate');
    const name = os.hostname();
    const now = new Date();
    const made = await selfSigned([{ name: 'commonName', value: `Parley on ${name}` }, { name: 'organizationName', value: 'Parley' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now.getTime() - 86_400_000),
      notAfterDate: new Date(now.getTime() + GENERATED_LIFETIME_DAYS * 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 2, value: name },
            ...(name.includes('.') ? [] : [{ type: 2 as const, value: `${name}.local` }]),
            { type: 7, ip: '127.0.0.1' },
            ...deps.addresses().map((ip) => ({ type: 7 as const, ip })),
          ],
        },
      ],
    });
    await store('generated', made.cert, made.private);
    return { source: 'generated', cert: made.cert, key: made.private, ...checkCertificatePair(made.cert, made.private) };
  }

  return {
    /** The generated certificate, made on first use and then kept. */
    async generated(): Promise<LanTlsMaterial> {
      return (await load('generated')) ?? generate();
    },
    /** The admin's certificate, if one was supplied. */
    custom(): Promise<LanTlsMaterial | undefined> {
      return load('custom');
    },
    /** Stores an admin's certificate and key after checking them. */
    async saveCustom(cert: string, key: string): Promise<LanTlsMaterial> {
      const checked = checkCertificatePair(cert, key);
      await store('custom', cert, key);
      return { source: 'custom', cert, key, ...checked };
    },
  };
}
export type LanTls = ReturnType<typeof createLanTls>;
