import { useEffect, useState } from 'react';

let painted = false;

/**
 * False until the page has painted once, true from just after that paint on (at once for a
 * component mounted later). What waits on it (home's figures, bell, proof line and operator
 * entry, each a chunk of its own and an answer) is neither fetched nor run before the first
 * paint, which then needs only the first download; its placeholders are painted meanwhile.
 * A hidden page paints nothing, so it waits for nothing.
 */
export function useAfterFirstPaint(): boolean {
  const [after, setAfter] = useState(painted);
  useEffect(() => {
    if (after) return;
    const done = () => {
      painted = true;
      setAfter(true);
    };
    if (document.visibilityState === 'hidden') return done();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The frame's callback runs before its paint; a task queued from it runs after.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(done, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [after]);
  return after;
}
