import { encodeQR } from 'qr';

/**
 * A QR code drawn as SVG elements (no inline style, no data: URL: the page's CSP stays strict),
 * with the same library and drawing as the payment page's (features/pay/qr.ts): one path of the
 * dark runs of each row on a white square, error correction M.
 */
export function Qr({ text, label }: { text: string; label: string }) {
  const modules = encodeQR(text, 'raw', { ecc: 'medium', border: 2 });
  const size = modules.length;
  let runs = '';
  for (let y = 0; y < size; y++) {
    const row = modules[y]!;
    let pen = -1;
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      let end = x + 1;
      while (end < size && row[end]) end++;
      runs += pen < 0 ? `M${x} ${y}.5h${end - x}` : `m${x - pen} 0h${end - x}`;
      pen = end;
      x = end;
    }
  }
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shape-rendering="crispEdges"
      width="220"
      height="220"
    >
      <path fill="#ffffff" d={`M0 0h${size}v${size}H0z`} />
      <path stroke="#000000" d={runs} />
    </svg>
  );
}
