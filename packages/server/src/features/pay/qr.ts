type EncodeRaw = (text: string, output: 'raw', opts: { ecc: 'medium'; border: number }) => boolean[][];
let loaded: Promise<EncodeRaw> | undefined;

/**
 * The QR code of `text` as an SVG document: a white square and one <path> of the dark runs of each
 * row, a few KB. `qr` (by the author of @noble/curves, no dependencies) only computes the modules:
 * its own SVG is a square per module (14 KB) on a transparent background, which a dark page would
 * make unscannable. Loaded on first use, so a server that never renders a payment page does not
 * load it at start. Error correction M: the usual for payment QR codes, readable off a phone screen.
 */
export async function qrSvg(text: string): Promise<string> {
  loaded ??= import('qr').then((m) => m.encodeQR as EncodeRaw);
  const modules = (await loaded)(text, 'raw', { ecc: 'medium', border: 2 });
  const size = modules.length;
  let runs = '';
  for (let y = 0; y < size; y++) {
    const row = modules[y]!;
    // The pen ends each run at its right end: the next run of the row is a relative move from there.
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
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<path fill="#ffffff" d="M0 0h${size}v${size}H0z"/><path stroke="#000000" d="${runs}"/></svg>\n`
  );
}
