import type { TFunction } from 'i18next';
import { deviceLabel as label } from '../../../../contract/labels.ts';
import type { SessionItem } from '../../../../contract/sessions.ts';
import { translator } from '../../lib/translate.ts';

/** "Chrome on Android" in the reader's language; browser and system names stay as they are. */
export const deviceLabel = (t: TFunction, session: Pick<SessionItem, 'browser' | 'os'>): string => label(translator(t), session);
