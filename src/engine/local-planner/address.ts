// Whether typed text is an address ("github.com/vercel", "linear.app", "localhost:3000") rather
// than a name. "next.js" and "node.js" are names: their last part is a file extension, not a TLD.

const CODE_EXTENSIONS = /\.(?:js|ts|jsx|tsx|py|rs|go|rb|md|sh|css|html|json)$/;

export function isAddress(text: string): boolean {
  const p = text.trim().toLowerCase();
  if (!p || /\s/.test(p)) return false;
  if (p === 'localhost' || /^localhost:\d+/.test(p) || p.includes('://') || /^[^/]+\.[a-z]{2,}\//.test(p)) return true;
  if (/^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:\/.*)?$/.test(p)) return true;
  return /\.[a-z]{2,}(?::\d+)?$/.test(p) && !CODE_EXTENSIONS.test(p);
}
