import { useTranslation } from 'react-i18next';
import { EMPTY } from '../../lib/format.ts';
import type { UserInfoData } from '../../../../contract/team.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { BindStep } from '../center/BindStep.tsx';

/**
 * The user's own invitation code (with Copy) and the superior's referral code; until an inviter
 * is bound, the bind step (the same as on the centre, prefilled from an invite link).
 */
export function CodesCard({ user }: { user: UserInfoData }) {
  const { t } = useTranslation();
  return (
    <section className="card codes" aria-label={t('my.codes')}>
      <dl className="codes__list">
        <div className="codes__row">
          <dt className="figure__label">{t('my.inviteCode')}</dt>
          <dd className="codes__value">
            <span className="codes__code" data-testid="own-code">
              {user.inviteCode || EMPTY}
            </span>
            <CopyButton text={user.inviteCode} label={t('my.copyCode')} />
          </dd>
        </div>
        {user.inviterBound && (
          <div className="codes__row">
            <dt className="figure__label">{t('my.superiorCode')}</dt>
            <dd className="codes__value">
              <span className="codes__code" data-testid="superior-code">
                {user.inviterCode ?? EMPTY}
              </span>
            </dd>
          </div>
        )}
      </dl>
      {!user.inviterBound && <BindStep />}
    </section>
  );
}
