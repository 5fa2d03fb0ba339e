import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import type { UserInfoData } from '../../../../contract/team.ts';
import { formatFigure } from '../../lib/format.ts';

/** The level badge V0..V5, read out as "Level V1". */
function LevelBadge({ level }: { level: number }) {
  const { t } = useTranslation();
  return (
    <span className="level-badge" data-level={level}>
      <span className="visually-hidden">{t('my.level', { level })}</span>
      <span aria-hidden="true">V{level}</span>
    </span>
  );
}

/** Effective (at least 10 AIC in active orders) or not, as a small tag. */
export function EffectiveTag({ effective }: { effective: boolean }) {
  const { t } = useTranslation();
  return (
    <Tag className="effective-tag" color={effective ? 'success' : 'default'} fill="outline">
      {t(effective ? 'my.effective' : 'my.notEffective')}
    </Tag>
  );
}

/** The header of My: name, UID, level and whether the user is effective (as of the last settled day). */
export function ProfileCard({ user }: { user: UserInfoData }) {
  const { t } = useTranslation();
  return (
    <section className="card card--hero profile" aria-label={user.name}>
      <div className="profile__avatar" aria-hidden="true">
        {user.name.slice(0, 1).toUpperCase()}
      </div>
      <div className="profile__body">
        <h2 className="profile__name">{user.name}</h2>
        <p className="profile__uid" data-testid="uid">
          UID {user.userId}
        </p>
        <div className="profile__tags">
          <LevelBadge level={user.level} />
          <EffectiveTag effective={user.effective} />
        </div>
        <p className="profile__note">{t('my.effectiveHint', { amount: formatFigure('10') })}</p>
        <p className="profile__note">{t('my.asOf')}</p>
      </div>
    </section>
  );
}
