// The link box's rule: only web and mail links. A `javascript:` or `data:` link must never enter a
// mail.

export function safeLinkUrl(input: string): string | null {
  const raw = input.trim();
  if (!raw) return null;
  // "www.example.com" is what people paste; it means https.
  const withScheme = /^www\./i.test(raw) ? `https://${raw}` : raw;
  if (!/^(https?:\/\/|mailto:)/i.test(withScheme)) return null;
  try {
    const url = new URL(withScheme);
    if (url.protocol === 'mailto:') return url.pathname ? withScheme : null;
    return url.hostname ? url.href : null;
  } catch {
    return null;
  }
}
