import { useEffect, useRef } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
/** Frames to wait for the popup's content to mount (it appears after its own state update). */
const MOUNT_FRAMES = 30;

/**
 * While `active`, keyboard focus stays inside the element the returned ref is on: it moves to
 * its first control on opening, Tab and Shift+Tab go round inside it, Escape calls `onEscape`;
 * on closing, focus goes back to what had it before (the button that opened it).
 */
export function useFocusTrap<E extends HTMLElement>(active: boolean, onEscape: () => void) {
  const ref = useRef<E>(null);
  const latestOnEscape = useRef(onEscape);
  latestOnEscape.current = onEscape;

  useEffect(() => {
    if (!active) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const controls = () =>
      [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((el) => el.getClientRects().length > 0);
    let frame = 0;
    let tries = 0;
    const focusFirst = () => {
      const first = controls()[0];
      if (first) first.focus();
      else if (tries++ < MOUNT_FRAMES) frame = requestAnimationFrame(focusFirst);
    };
    frame = requestAnimationFrame(focusFirst);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') return latestOnEscape.current();
      if (event.key !== 'Tab') return;
      const list = controls();
      const first = list[0];
      const last = list.at(-1);
      if (!first || !last) return event.preventDefault();
      const here = document.activeElement;
      const inside = ref.current?.contains(here) ?? false;
      if (event.shiftKey && (here === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (here === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('keydown', onKey);
      if (opener?.isConnected) opener.focus();
    };
  }, [active]);

  return ref;
}
