import Button from 'antd-mobile/es/components/button';
import Input from 'antd-mobile/es/components/input';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviterData } from '../../../../contract/team.ts';
import { ApiError } from '../../api/client.ts';
import { useBind } from '../../api/earn.ts';
import { lookUpInviter, usePlatformInviteCode } from '../../api/team.ts';
import { useConfirmedAction } from '../../api/useConfirmedAction.ts';
import { presetInviteCode } from '../../lib/inviteCode.ts';
import { Figure } from '../../components/Figure.tsx';

/**
 * Buying needs a bound inviter (a21): until one is bound, the subscribe form asks for the
 * superior's invitation code (prefilled from an invite link), says how to get one (the link,
 * or the platform's code when the operator set one), shows whose code it is in the
 * confirmation, and binds it once. A code that cannot be bound (one's own, unknown, not a code
 * at all) is refused under the field with its own message before any dialog.
 */
export function BindStep() {
  const { t } = useTranslation();
  const inputId = useId();
  const [code, setCode] = useState(presetInviteCode);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const { start, sending } = useConfirmedAction(useBind());
  const platformCode = usePlatformInviteCode().data?.code ?? null;

  /** The inviter behind `inviteCode`, or null once the refusal is shown under the field. */
  const inviterOf = async (inviteCode: string): Promise<InviterData | null> => {
    setChecking(true);
    try {
      return await lookUpInviter(inviteCode);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('common.operationFailed'));
      return null;
    } finally {
      setChecking(false);
    }
  };

  const submit = (typed = code) =>
    start(async () => {
      const inviteCode = typed.trim();
      if (!inviteCode) {
        setError(t('err.inviteEmpty'));
        return null;
      }
      setError(null);
      const inviter = await inviterOf(inviteCode);
      if (!inviter) return null;
      // Whose code it is comes before "cannot be changed later": the bind is for good.
      const question = (
        <>
          <dl className="figures bind-confirm">
            <Figure label={t('earn.bind.inviter')} value={<span data-testid="inviter-name">{inviter.name}</span>} />
            <Figure label={t('earn.bind.uid')} value={<span data-testid="inviter-uid">{inviter.maskedUserId}</span>} />
          </dl>
          <p className="bind-confirm__text">{t('earn.bind.confirm', { code: inviter.code })}</p>
        </>
      );
      return { question, body: { inviteCode: inviter.code }, success: () => t('common.bindSuccess') };
    });

  const takePlatformCode = (platform: string) => {
    setCode(platform);
    void submit(platform);
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
      <Button
        className="form-submit"
        block
        size="large"
        color="primary"
        loading={sending || checking}
        disabled={sending || checking}
        onClick={() => void submit()}
      >
        {t('earn.bind.button')}
      </Button>
      <div className="bind-step__other">
        <p className="field__note">{t('earn.bind.noCode')}</p>
        {platformCode && (
          <Button className="bind-step__platform" block fill="outline" disabled={sending || checking} onClick={() => takePlatformCode(platformCode)}>
            {t('earn.bind.usePlatform')}
          </Button>
        )}
      </div>
    </div>
  );
}
