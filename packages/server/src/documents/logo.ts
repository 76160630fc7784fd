/** The image formats the PDF embeds (pdfkit reads PNG and JPEG). */
const EMBEDDED = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/=\s]+)$/;

/**
 * The bytes of a logo to embed, or null to leave it out. Only a `data:` URL of a PNG or JPEG is
 * embedded; an https URL (or any other text) is never fetched or handed to the PDF library, so
 * rendering opens no connection. Bytes whose signature does not match the declared type are
 * left out too (a broken image must not break the document).
 */
export function logoBytes(logo: string | null | undefined): Buffer | null {
  if (logo === null || logo === undefined) return null;
  const m = EMBEDDED.exec(logo);
  if (m === null) return null;
  const bytes = Buffer.from(m[2]!, 'base64');
  const png =
    bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (m[1] === 'png' ? !png : !jpeg) return null;
  return bytes;
}

/** Whether a URL may be a link in a document: https only (an explorer, the merchant's page). */
export function linkable(url: string | null | undefined): url is string {
  if (url === null || url === undefined) return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
