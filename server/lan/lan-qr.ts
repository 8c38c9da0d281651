import QRCode from 'qrcode';

/** An SVG QR code of `text` (a LAN URL), for the admin page. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
}

/** A PNG data URL QR code of `text`, for native dialogs of the desktop shell. */
export function qrPngDataUrl(text: string, width = 256): Promise<string> {
  return QRCode.toDataURL(text, { margin: 2, width, errorCorrectionLevel: 'M' });
}
