import { describe, expect, it } from 'vitest';
import { chooseLanguage, LANGUAGES } from './languages.ts';

describe('language choice (spec 4): stored, else browser if supported, else zh-cn', () => {
  it('has the ten keys of spec section 1', () => {
    expect(LANGUAGES.map((l) => l.key)).toEqual([
      'zh-cn', 'en', 'ft', 'Malaysian', 'Indonesia', 'Vietnamese', 'Japan', 'Korean', 'Thai', 'Hindi',
    ]);
  });

  it('prefers the stored language', () => {
    expect(chooseLanguage('Korean', ['en-US'])).toBe('Korean');
  });

  it('ignores a stored value that is not a language', () => {
    expect(chooseLanguage('klingon', ['ja-JP'])).toBe('Japan');
  });

  it.each([
    [['en-GB'], 'en'],
    [['zh-TW'], 'ft'],
    [['zh-HK'], 'ft'],
    [['zh-CN'], 'zh-cn'],
    [['ms-MY'], 'Malaysian'],
    [['id'], 'Indonesia'],
    [['vi-VN'], 'Vietnamese'],
    [['th-TH'], 'Thai'],
    [['hi-IN'], 'Hindi'],
    [['fr-FR', 'ko-KR'], 'Korean'],
  ])('maps browser %j to %s', (tags, key) => {
    expect(chooseLanguage(null, tags)).toBe(key);
  });

  it('falls back to zh-cn', () => {
    expect(chooseLanguage(null, ['fr-FR', 'de'])).toBe('zh-cn');
    expect(chooseLanguage(undefined, [])).toBe('zh-cn');
  });
});
