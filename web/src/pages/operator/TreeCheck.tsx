import Button from 'antd-mobile/es/components/button';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import type { LedgerCheckData } from '../../../../contract/operator.ts';
import { TOAST_MS } from '../../api/client.ts';
import { useUnbind } from '../../api/operator.ts';
import { Figure } from '../../components/Figure.tsx';
import { confirmAction } from '../../lib/confirm.ts';

type Tree = LedgerCheckData['tree'];

/** One referral cycle: its members, each of whom the operator may unbind (after a confirmation). */
function Cycle({ members }: { members: string[] }) {
  const { t } = useTranslation();
  const { send, sending } = useUnbind();
  const unbind = async (uid: string) => {
    if (!(await confirmAction(t, t('operator.tree.confirmUnbind', { uid })))) return;
    if (await send({ userId: uid })) Toast.show({ content: t('common.operationSuccess'), icon: 'success', duration: TOAST_MS });
  };
  return (
    <li className="op-cycle">
      <p className="op-cycle__members">{t('operator.tree.cycle', { members: members.join(' → ') })}</p>
      <div className="op-cycle__actions">
        {members.map((uid) => (
          <Button key={uid} size="small" fill="outline" color="danger" disabled={sending} onClick={() => void unbind(uid)}>
            {t('operator.tree.unbind', { uid })}
          </Button>
        ))}
      </div>
    </li>
  );
}

/** The referral tree's own check: stale paths, cycles (each to be unbound by hand) and self-paid rebates. */
export function TreeCheck({ tree }: { tree: Tree }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t('operator.tree.title')} data-testid="tree-check">
      <div className="op-subhead">
        <h3 className="op-subhead__title">{t('operator.tree.title')}</h3>
      </div>
      <p className="card__text">{t(tree.ok ? 'operator.tree.ok' : 'operator.tree.failed')}</p>
      <dl className="figures">
        <Figure label={t('operator.tree.stale')} value={String(tree.stalePaths)} />
        <Figure label={t('operator.tree.cycles')} value={String(tree.cycles.length)} />
        <Figure label={t('operator.tree.selfRebates')} value={String(tree.selfRebateLines)} />
      </dl>
      {tree.cycles.length > 0 && (
        <ul className="op-cycles">
          {tree.cycles.map((members) => (
            <Cycle key={members.join(',')} members={members} />
          ))}
        </ul>
      )}
    </section>
  );
}
