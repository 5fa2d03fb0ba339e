import type { LanguageKey } from '../../../contract/languages.ts';
import { PATHS } from '../../../contract/paths.ts';
import type { PushKeyData, PushStateData, PushSubscribeBody } from '../../../contract/push.ts';
import { ApiError, apiGet, apiPost } from '../api/client.ts';

/**
 * Web Push, opt-in: this browser's subscription with the push service, handed to the server,
 * which then sends the holder's notices here (the service worker shows them).
 */

/** Why this browser cannot take push notifications, or null when it can. */
export function pushUnsupported(): 'unsupported' | null {
  const can =
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    // The service worker is written by the production build only (lib/serviceWorker.ts).
    import.meta.env.PROD;
  return can ? null : 'unsupported';
}

/** The worker the build registers at start-up; it may still be installing on a first visit. */
async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration();
  if (existing?.active) return existing;
  const ready = navigator.serviceWorker.ready;
  const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no service worker')), 10_000));
  return Promise.race([ready, late]);
}

/** This browser's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const existing = await navigator.serviceWorker.getRegistration();
  return (await existing?.pushManager.getSubscription()) ?? null;
}

const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> => {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

/** Tells the server (again) where to send, and in which language; quiet, the switch says the rest. */
export async function sendSubscription(subscription: PushSubscription, language: LanguageKey): Promise<void> {
  const json = subscription.toJSON();
  const body: PushSubscribeBody = {
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    language,
  };
  await apiPost<PushStateData>(PATHS.pushSubscribe, body, { toast: false });
}

type EnableResult = 'on' | 'denied' | 'dismissed' | 'failed';

/**
 * Asks the browser's permission (a prompt the first time), subscribes with the server's key and
 * hands the subscription to the server. A subscription made with another key (a new database)
 * is replaced.
 */
export async function enablePush(language: LanguageKey): Promise<EnableResult> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'dismissed';
  try {
    const [{ publicKey }, worker] = await Promise.all([
      apiGet<PushKeyData>(PATHS.pushKey, undefined, { toast: false }),
      registration(),
    ]);
    const options = { userVisibleOnly: true, applicationServerKey: fromBase64Url(publicKey) };
    let subscription: PushSubscription;
    try {
      subscription = await worker.pushManager.subscribe(options);
    } catch (error) {
      const old = await worker.pushManager.getSubscription();
      if (!old) throw error;
      await old.unsubscribe();
      subscription = await worker.pushManager.subscribe(options);
    }
    await sendSubscription(subscription, language);
    return 'on';
  } catch {
    return 'failed';
  }
}

/** Stops: the server forgets this browser (already gone is fine), then the browser unsubscribes. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await apiPost<PushStateData>(PATHS.pushUnsubscribe, { endpoint: subscription.endpoint }, { toast: false }).catch((error: unknown) => {
    if (!(error instanceof ApiError && error.code === 404)) throw error;
  });
  await subscription.unsubscribe();
}
