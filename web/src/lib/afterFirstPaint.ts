let painted: Promise<void> | undefined;

/** Longest wait for a first paint the browser does not report. */
const UNREPORTED_PAINT_MS = 1000;

/**
 * Settles just after the page's first contentful paint has been presented (at once later on).
 * What waits on it (home's figures, bell, proof line and operator entry: a chunk, its
 * dependencies and four answers) is neither fetched nor run before that paint, which then needs
 * only the first download; Suspense paints their placeholders meanwhile. The paint is the one
 * the browser reports ('first-contentful-paint', presented on screen, a frame after the
 * main thread drew it). A hidden page paints nothing, so it waits for nothing.
 */
export function afterFirstPaint(): Promise<void> {
  painted ??= new Promise((resolve) => {
    // A hidden page paints nothing (and runs no animation frame): nothing to wait for.
    if (document.visibilityState === 'hidden') {
      setTimeout(resolve, 0);
      return;
    }
    if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      requestAnimationFrame(() => setTimeout(resolve, 0));
      return;
    }
    const fallback = setTimeout(resolve, UNREPORTED_PAINT_MS);
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      clearTimeout(fallback);
      setTimeout(resolve, 0);
    });
    observer.observe({ type: 'paint', buffered: true });
  });
  return painted;
}
