import type { LanguageKey } from '../../contract/languages.ts';
import { type NoticeWords, noticeWording } from '../../contract/noticeWording.ts';
import type { NoticeKind } from '../../contract/notifications.ts';
import { translate } from '../http/messages.ts';

/** `{{name}}` filled from the values, as i18next does in the app (no escaping: not HTML). */
const fill = (text: string, values: Record<string, string> | undefined) =>
  values ? text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole) : text;

/**
 * A notice in the holder's language, with the app's own wording (contract/noticeWording.ts) and
 * texts (the web app's locale files, read by http/messages.ts): one text per notice and language.
 */
export function wordNotice(language: LanguageKey, notice: { kind: NoticeKind; params: Record<string, string> }): NoticeWords {
  return noticeWording((key, values) => fill(translate(key, language), values), notice);
}
