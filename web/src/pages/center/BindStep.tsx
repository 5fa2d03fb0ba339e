import Button from 'antd-mobile/es/components/button';
import Dialog from 'antd-mobile/es/components/dialog';
import Input from 'antd-mobile/es/components/input';
import Toast from 'antd-mobile/es/components/toast';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_MS } from '../../api/client.ts';
import { useBind } from '../../api/earn.ts';
import { presetInviteCode } from '../../lib/inviteCode.ts';

/**
 * Buying needs a bound inviter (a21): until one is bound, the subscribe form asks for the
 * superior's invitation code (prefilled from an invite link), confirms, and binds it once.
 */
export function BindStep() {
  const { t } = useTranslation();
  const inputId = useId();
  const [code, setCode] = useState(presetInviteCode);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  const { send, sending } = useBind();

  const submit = async () => {
    if (busy.current) return;
    const inviteCode = code.trim();
    if (!inviteCode) {
      setError(t('err.inviteEmpty'));
      return;
    }
    setError(null);
    busy.current = true;
    try {
      const confirmed = await Dialog.confirm({
        'aria-label': t('wallet.confirmTitle'),
        title: t('wallet.confirmTitle'),
        content: t('earn.bind.confirm', { code: inviteCode }),
        confirmText: t('common.confirm'),
        cancelText: t('common.cancel'),
      });
      if (!confirmed) return;
      if (await send({ inviteCode })) Toast.show({ content: t('common.bindSuccess'), icon: 'success', duration: TOAST_MS });
    } finally {
      busy.current = false;
    }
  };

  return (
    <div className="bind-step" role="group" aria-label={t('earn.bind.title')}>
      <h3 className="bind-step__title">{t('earn.bind.title')}</h3>
      <p className="field__note">{t('earn.bind.hint')}</p>
      <label className="field__label" htmlFor={inputId}>
        {t('earn.bind.label')}
      </label>
      <div className="amount-field">
        <Input
          id={inputId}
          className="amount-field__input"
          autoComplete="off"
          autoCapitalize="characters"
          placeholder={t('earn.bind.placeholder')}
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(null);
          }}
          onEnterPress={() => void submit()}
        />
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <Button className="form-submit" block size="large" color="primary" loading={sending} disabled={sending} onClick={() => void submit()}>
        {t('earn.bind.button')}
      </Button>
    </div>
  );
}
