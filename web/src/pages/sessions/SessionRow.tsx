import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '../../../../contract/sessions.ts';
import { Figure } from '../../components/Figure.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { deviceLabel } from './deviceLabel.ts';

/** One signed-in device: its name, this device or a Revoke button, first and last seen. */
export function SessionRow({
  session,
  busy,
  onRevoke,
}: {
  session: SessionItem;
  busy: boolean;
  onRevoke: (session: SessionItem) => void;
}) {
  const { t } = useTranslation();
  const device = deviceLabel(t, session);
  return (
    <li className="session" aria-label={session.current ? `${device} (${t('sessions.current')})` : device}>
      <div className="session__head">
        <h3 className="session__device">{device}</h3>
        {session.current && (
          <Tag color="success" fill="outline">
            {t('sessions.current')}
          </Tag>
        )}
      </div>
      <dl className="figures">
        <Figure label={t('sessions.firstSeen')} value={formatDateTime(session.firstSeen)} />
        <Figure label={t('sessions.lastSeen')} value={formatDateTime(session.lastSeen)} />
      </dl>
      {!session.current && (
        <div className="session__actions">
          <Button color="danger" fill="outline" size="middle" disabled={busy} onClick={() => onRevoke(session)}>
            {t('sessions.revoke')}
          </Button>
        </div>
      )}
    </li>
  );
}
