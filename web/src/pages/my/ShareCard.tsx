import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton.tsx';
import { inviteLink } from '../../lib/inviteLink.ts';

/**
 * The invitation to share: the code shown large, the link (which prefills the bind step of
 * whoever opens it), Copy link and, where the device can, the system's Share sheet.
 */
export function ShareCard({ code }: { code: string }) {
  const { t } = useTranslation();
  const link = inviteLink(code);
  const canShare = typeof navigator.share === 'function';
  const share = async () => {
    try {
      await navigator.share({ title: t('app.name'), text: t('my.share.text', { code }), url: link });
    } catch {
      // Closed without sharing: nothing to say.
    }
  };
  return (
    <section className="card share" aria-label={t('my.share.title')}>
      <h2 className="card__title">{t('my.share.title')}</h2>
      <p className="card__text">{t('my.share.hint')}</p>
      <p className="share__label">{t('my.share.code')}</p>
      <p className="share__code" data-testid="share-code">
        {code}
      </p>
      <p className="share__label">{t('my.share.link')}</p>
      <p className="share__link" data-testid="invite-link">
        {link}
      </p>
      <div className="share__buttons">
        <CopyButton text={link} fill="solid">
          {t('my.share.copyLink')}
        </CopyButton>
        {canShare && (
          <Button size="small" color="primary" fill="outline" onClick={() => void share()}>
            {t('common.share')}
          </Button>
        )}
      </div>
    </section>
  );
}
