import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { freePort } from '../helpers/free-port';
import { httpsGet } from '../helpers/https-get';
import { rawExchange } from '../helpers/raw-socket';
import { startBuiltService, type BuiltService } from './built-service';

/** LAN sharing in the built service, as Admin → Network turns it on. */
describe('LAN sharing in the built service', () => {
  let service: BuiltService;
  let admin: TestUser;
  let lanPort: number;

  beforeAll(async () => {
    service = await startBuiltService();
    admin = await signupAdmin(service);
    lanPort = await freePort();
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  it('shows the Network settings with a generated certificate, and turns sharing on over HTTPS', async () => {
    const as = service.as(admin.token);
    const settings = await as.get('/api/v1/configs/lan');
    expect(settings.status, settings.text).toBe(200);
    expect(settings.body).toMatchObject({ enabled: false, tls: 'generated' });
    expect(settings.body.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);

    const on = await as.post('/api/v1/configs/lan', { enabled: true, port: lanPort });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, listening: true, error: null });
    const health = await httpsGet(`https://127.0.0.1:${lanPort}/health`);
    expect(health.status).toBe(200);
    // Colleagues' browsers see the certificate the settings page shows.
    expect(health.fingerprint).toBe(settings.body.fingerprint);
    const me = await httpsGet(`https://127.0.0.1:${lanPort}/api/v1/auths/`, { authorization: `Bearer ${admin.token}` });
    expect(JSON.parse(me.body)).toMatchObject({ email: admin.email });

    const url = (on.body.urls as string[])[0];
    if (url) {
      const qr = await as.get(`/api/v1/configs/lan/qr?url=${encodeURIComponent(url)}`);
      expect(qr.status).toBe(200);
      expect(qr.text).toContain('<svg');
    }
  });

  it('keeps running after plain HTTP on the HTTPS port names an impossible port or hides a host behind user info', async () => {
    for (const host of ['localhost:99999', 'localhost:x@evil.example', '[::1', 'a'.repeat(5000)]) {
      const sent = await rawExchange('127.0.0.1', lanPort, { send: `GET /admin HTTP/1.1\r\nHost: ${host}\r\n\r\n` });
      const location = /\r\nlocation: (\S+)/i.exec(sent.received)?.[1];
      expect(location, host).toBe(`https://127.0.0.1:${lanPort}/admin`);
    }
    expect(service.exited()).toBeUndefined();
    expect((await service.anon.get('/health')).status).toBe(200);
    expect((await httpsGet(`https://127.0.0.1:${lanPort}/health`)).status).toBe(200);
  });

  it('stops sharing at once', async () => {
    const off = await service.as(admin.token).post('/api/v1/configs/lan', { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, listening: false });
    await expect(httpsGet(`https://127.0.0.1:${lanPort}/health`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
