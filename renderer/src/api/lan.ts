import type { LanConfigUpdate, LanStatus } from '../../../server/contracts/lan';
import { authHeaders, errorOf, http } from './http';

export type { LanStatus };

/** "Share on local network" (admin): the setting, what is listening, and a QR code per LAN URL. */
export const lanApi = {
  status: () => http.get<LanStatus>('/api/v1/configs/lan'),
  update: (patch: LanConfigUpdate) => http.post<LanStatus>('/api/v1/configs/lan', patch),
  /** The QR code of one LAN URL as SVG text (fetched with the session header, so it can be shown inline). */
  async qrSvg(url: string, signal?: AbortSignal): Promise<string> {
    const res = await fetch(`/api/v1/configs/lan/qr?url=${encodeURIComponent(url)}`, { headers: { Accept: 'image/svg+xml', ...authHeaders() }, signal, credentials: 'same-origin' });
    if (!res.ok) throw await errorOf(res);
    return res.text();
  },
};
