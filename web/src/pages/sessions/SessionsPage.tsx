import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '../../../../contract/sessions.ts';
import { TOAST_MS } from '../../api/client.ts';
import { useRevokeOthers, useRevokeSession, useSessions } from '../../api/sessions.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { confirmAction } from '../../lib/confirm.ts';
import { showToast } from '../../lib/toast.ts';
import { deviceLabel } from './deviceLabel.ts';
import { SessionRow } from './SessionRow.tsx';
import '../statement/statement.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/** Signed-in devices: each with first and last seen, revoked one by one or all but this one. */
export function SessionsPage() {
  const { t } = useTranslation();
  const { data, isPending, refetch } = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOthers();
  const busy = revoke.sending || revokeOthers.sending;

  const confirm = (content: string) => confirmAction(t, content);
  const done = () => showToast({ content: t('sessions.revoked'), icon: 'success', duration: TOAST_MS });

  const revokeOne = async (session: SessionItem) => {
    if (!(await confirm(t('sessions.confirmRevoke', { device: deviceLabel(t, session) })))) return;
    if (await revoke.send({ id: session.id })) done();
  };
  const revokeAllOthers = async () => {
    if (!(await confirm(t('sessions.confirmRevokeOthers')))) return;
    if (await revokeOthers.send({})) done();
  };

  const others = data?.items.filter((s) => !s.current).length ?? 0;
  let body: ReactNode;
  if (isPending) body = <Skeleton.Paragraph lineCount={6} animated className="card" />;
  else if (!data) {
    body = (
      <LoadFailed message={t('sessions.loadFailed')} onRetry={() => void refetch()} />
    );
  } else {
    body = (
      <section className="card" aria-label={t('sessions.list')}>
        <h2 className="card__title">{t('sessions.list')}</h2>
        <ul className="sessions__list" aria-label={t('sessions.list')}>
          {data.items.map((session) => (
            <SessionRow key={session.id} session={session} busy={busy} onRevoke={(s) => void revokeOne(s)} />
          ))}
        </ul>
        <div className="actions">
          <Button block color="danger" size="large" disabled={busy || others === 0} onClick={() => void revokeAllOthers()}>
            {t('sessions.revokeOthers')}
          </Button>
        </div>
      </section>
    );
  }

  return (
    <main className="page page--sessions">
      <PageHeader title={t('sessions.title')} />
      <p className="statement-note">{t('sessions.intro')}</p>
      {body}
    </main>
  );
}
