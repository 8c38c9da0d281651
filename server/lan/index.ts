export { createLanSharing, type LanSharing } from './lan.service';
export { lanRoutes } from './lan.routes';
export { LanConfigSection } from './lan-config';
export { lanAddresses, lanUrl, type NetworkInterfaces } from './lan-addresses';
export { qrPngDataUrl, qrSvg } from './lan-qr';
export { createLanTls, type LanTls } from './lan-tls';
