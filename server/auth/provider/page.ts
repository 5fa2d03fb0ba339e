import type { LanguageKey } from '../../../contract/languages.ts';
import { translate } from '../../http/messages.ts';
import type { ExchangeAccount } from './accounts.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The embedded exchange's sign-in page: pick a demo account or create one by name. */
export function signInPage(input: {
  action: string;
  accounts: ExchangeAccount[];
  language: LanguageKey;
  htmlLang: string;
  error?: string;
}): string {
  const t = (key: string) => escapeHtml(translate(`provider.${key}`, input.language));
  const accounts = input.accounts
    .map(
      (a) =>
        `<li><button class="account" type="submit" name="account" value="${escapeHtml(a.subject)}">${escapeHtml(a.name)}</button></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="${escapeHtml(input.htmlLang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t('title')}</title>
<style>
body{margin:0;font-family:system-ui,'Noto Sans','Noto Sans CJK SC','Noto Sans Thai','Noto Sans Devanagari',sans-serif;background:#0b1f3a;color:#0b1f3a}
main{max-width:420px;margin:0 auto;padding:24px 16px}
h1{color:#fff;font-size:22px;margin:8px 0 4px}.sub{color:#c9d3e3;font-size:14px;margin:0 0 16px}
.card{background:#fff;border-radius:16px;padding:16px;margin-bottom:12px}
h2{font-size:15px;margin:0 0 10px}ul{list-style:none;margin:0;padding:0;display:grid;gap:8px}
button{font:inherit;cursor:pointer;border-radius:10px;min-height:44px;width:100%}
.account{border:1px solid #d5dbe6;background:#f7f9fc;text-align:left;padding:10px 14px;font-size:16px}
.primary{border:0;background:#f0b90b;color:#0b1f3a;font-weight:700;margin-top:10px}
label{display:block;font-size:14px;margin-bottom:6px}
input{font:inherit;width:100%;box-sizing:border-box;padding:10px 12px;border:1px solid #d5dbe6;border-radius:10px;min-height:44px}
.error{color:#d9363e;font-size:14px}
</style></head><body><main>
<h1>${t('title')}</h1><p class="sub">${t('subtitle')}</p>
${input.error ? `<p class="card error" role="alert">${t(input.error)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}" class="card">
<h2>${t('pick')}</h2><ul>${accounts}</ul></form>
<form method="post" action="${escapeHtml(input.action)}" class="card">
<label for="name">${t('createLabel')}</label>
<input id="name" name="name" maxlength="40" autocomplete="nickname" placeholder="${t('namePlaceholder')}" required>
<button class="primary" type="submit">${t('create')}</button></form>
</main></body></html>`;
}
