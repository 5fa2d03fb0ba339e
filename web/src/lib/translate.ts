import type { TFunction } from 'i18next';
import type { Translate } from '../../../contract/labels.ts';

/** i18next's `t` as the plain translation function the shared wording takes (contract/labels.ts). */
export const translator =
  (t: TFunction): Translate =>
  (key, values) =>
    values ? t(key, values) : t(key);
