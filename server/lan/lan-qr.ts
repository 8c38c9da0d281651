import type * as QRCodeModule from 'qrcode';
import { loadExports } from '../platform/library-exports';

type QRCode = Pick<typeof QRCodeModule, 'toString' | 'toDataURL'>;
let qrModule: Promise<QRCode> | undefined;
// Loaded when a QR code is first drawn (the admin's LAN page), not at start-up.
const loadQrCode = () => (qrModule ??= loadExports(import('qrcode'), 'qrcode', 'toString', 'toDataURL'));

/** An SVG QR code of `text` (a LAN URL), for the admin page. */
export async function qrSvg(text: string): Promise<string> {
  return (await loadQrCode()).toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
}

/** A PNG data URL QR code of `text`, for native dialogs of the desktop shell. */
export async function qrPngDataUrl(text: string, width = 256): Promise<string> {
  return (await loadQrCode()).toDataURL(text, { margin: 2, width, errorCorrectionLevel: 'M' });
}
