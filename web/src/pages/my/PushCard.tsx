import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n/index.ts';
import { currentSubscription, disablePush, enablePush, pushUnsupported, sendSubscription } from '../../lib/push.ts';
import { showToast } from '../../lib/toast.ts';

type State = 'loading' | 'unsupported' | 'off' | 'on' | 'denied' | 'failed';

/** The line under the switch for each state: what it means, or why it cannot be on. */
const EXPLAIN: Record<State, string> = {
  loading: 'my.push.off',
  unsupported: 'my.push.unsupported',
  off: 'my.push.off',
  on: 'my.push.on',
  denied: 'my.push.denied',
  failed: 'my.push.failed',
};

/**
 * Push notifications on this device, opt-in: switching on asks the browser's permission and
 * subscribes; off unsubscribes and the server forgets this browser. Notices are worded in the
 * app's language at the time (switching language tells the server again).
 */
export function PushCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [state, setState] = useState<State>(() => pushUnsupported() ?? 'loading');
  const [busy, setBusy] = useState(false);
  const hintId = useId();

  // What this browser holds: a subscription with permission is on (and told to the server again,
  // in the current language: it may have been removed, or the language changed).
  useEffect(() => {
    if (pushUnsupported()) return;
    let live = true;
    void currentSubscription()
      .then(async (subscription) => {
        if (!live) return;
        if (Notification.permission === 'denied') return setState('denied');
        if (!subscription || Notification.permission !== 'granted') return setState('off');
        setState('on');
        await sendSubscription(subscription, language).catch(() => undefined);
      })
      .catch(() => live && setState('off'));
    return () => {
      live = false;
    };
  }, [language]);

  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) {
        const result = await enablePush(language);
        setState(result === 'dismissed' ? 'off' : result);
        if (result === 'on') showToast({ content: t('my.push.turnedOn'), icon: 'success' });
      } else {
        await disablePush();
        setState('off');
        showToast({ content: t('my.push.turnedOff') });
      }
    } catch {
      setState('failed');
    } finally {
      setBusy(false);
    }
  };

  const disabled = state === 'unsupported' || state === 'loading' || busy;
  return (
    <section className="card push-card" aria-label={t('my.push.title')}>
      <div className="push-card__row">
        <h2 className="card__title" id={`${hintId}-title`}>
          {t('my.push.title')}
        </h2>
        <button
          type="button"
          role="switch"
          className="push-switch"
          aria-checked={state === 'on'}
          aria-busy={busy}
          disabled={disabled}
          onClick={() => void toggle(state !== 'on')}
          aria-labelledby={`${hintId}-title`}
          aria-describedby={hintId}
        >
          <span className="push-switch__track" aria-hidden="true">
            <span className="push-switch__handle" />
          </span>
        </button>
      </div>
      <p className={state === 'denied' || state === 'failed' ? 'card__text push-card__problem' : 'card__text'} id={hintId} role="status">
        {t(EXPLAIN[state])}
      </p>
    </section>
  );
}
