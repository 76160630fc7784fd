import type { QRCodeToStringOptions } from 'qrcode';

type ToString = (text: string, options: QRCodeToStringOptions) => Promise<string>;
let loaded: Promise<ToString> | undefined;

/**
 * The QR code of `text` as an SVG document (qrcode: one <path> per colour, a few KB). Loaded on
 * first use, so a server that never renders a payment page does not load it at start.
 * Error correction M: the usual for payment QR codes, readable off a phone screen.
 */
export async function qrSvg(text: string): Promise<string> {
  loaded ??= import('qrcode').then((m) => (m.default ?? m).toString as ToString);
  const render = await loaded;
  return render(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
    color: { dark: '#000000', light: '#ffffff' },
  });
}
