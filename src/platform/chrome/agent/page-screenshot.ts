import type { PageImage } from '../../../engine/agent-ports';
import type { TabSession } from './tab-session';

// The planner's picture of a tab: the visible part of the page (the visual viewport), scaled down
// to a width a vision model reads cheaply, as a JPEG. Scaling happens in Chrome (the clip's
// scale), so a 4K screen never crosses the socket at full size.

export async function pageScreenshot(s: TabSession, opts: { maxWidth: number; quality: number }): Promise<PageImage> {
  const metrics = await s.send(s.top, 'Page.getLayoutMetrics');
  const v = metrics.cssVisualViewport;
  const width = Math.max(1, Math.floor(v.clientWidth));
  const height = Math.max(1, Math.floor(v.clientHeight));
  const scale = Math.min(1, opts.maxWidth / width);
  // clip is in CSS pixels of the document: the viewport's own scroll offset places it.
  const shot = await s.send(s.top, 'Page.captureScreenshot', {
    format: 'jpeg',
    quality: opts.quality,
    clip: { x: v.pageX, y: v.pageY, width, height, scale },
    captureBeyondViewport: false,
  });
  return {
    mimeType: 'image/jpeg',
    data: Uint8Array.from(Buffer.from(shot.data, 'base64')),
    width: Math.round(width * scale),
    height: Math.round(height * scale),
  };
}
