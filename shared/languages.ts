/**
 * The service's language codes. The live list comes from `GET /api/langs`; this table is the offline
 * fallback and what the sandbox serves. `country` picks the flag (emoji and image); null where no country
 * stands for the language.
 */
export interface LanguageInfo {
  readonly code: string;
  readonly name: string;
  readonly country: string | null;
}

export const LANGUAGES: readonly LanguageInfo[] = [
  { code: 'en', name: 'English', country: 'US' },
  { code: 'es', name: 'Spanish', country: 'ES' },
  { code: 'fr', name: 'French', country: 'FR' },
  { code: 'de', name: 'German', country: 'DE' },
  { code: 'zh', name: 'Chinese', country: 'CN' },
  { code: 'ja', name: 'Japanese', country: 'JP' },
  { code: 'ru', name: 'Russian', country: 'RU' },
  { code: 'pt', name: 'Portuguese', country: 'PT' },
  { code: 'ar', name: 'Arabic', country: 'SA' },
  { code: 'hi', name: 'Hindi', country: 'IN' },
  { code: 'bn', name: 'Bengali', country: 'BD' },
  { code: 'pa', name: 'Punjabi', country: 'IN' },
  { code: 'vi', name: 'Vietnamese', country: 'VN' },
  { code: 'ko', name: 'Korean', country: 'KR' },
  { code: 'it', name: 'Italian', country: 'IT' },
  { code: 'fa', name: 'Persian', country: 'IR' },
  { code: 'tr', name: 'Turkish', country: 'TR' },
  { code: 'nl', name: 'Dutch', country: 'NL' },
  { code: 'he', name: 'Hebrew', country: 'IL' },
  { code: 'id', name: 'Indonesian', country: 'ID' },
  { code: 'pl', name: 'Polish', country: 'PL' },
  { code: 'uk', name: 'Ukrainian', country: 'UA' },
  { code: 'ro', name: 'Romanian', country: 'RO' },
  { code: 'el', name: 'Greek', country: 'GR' },
  { code: 'hu', name: 'Hungarian', country: 'HU' },
  { code: 'th', name: 'Thai', country: 'TH' },
  { code: 'sv', name: 'Swedish', country: 'SE' },
  { code: 'cs', name: 'Czech', country: 'CZ' },
  { code: 'da', name: 'Danish', country: 'DK' },
  { code: 'fi', name: 'Finnish', country: 'FI' },
  { code: 'no', name: 'Norwegian', country: 'NO' },
  { code: 'bg', name: 'Bulgarian', country: 'BG' },
  { code: 'sk', name: 'Slovak', country: 'SK' },
  { code: 'hr', name: 'Croatian', country: 'HR' },
  { code: 'sr', name: 'Serbian', country: 'RS' },
  { code: 'ms', name: 'Malay', country: 'MY' },
  { code: 'ta', name: 'Tamil', country: 'IN' },
  { code: 'ur', name: 'Urdu', country: 'PK' },
  { code: 'te', name: 'Telugu', country: 'IN' },
  { code: 'mr', name: 'Marathi', country: 'IN' },
  { code: 'gu', name: 'Gujarati', country: 'IN' },
  { code: 'ml', name: 'Malayalam', country: 'IN' },
  { code: 'af', name: 'Afrikaans', country: 'ZA' },
  { code: 'eu', name: 'Basque', country: 'ES' },
  { code: 'ca', name: 'Catalan', country: 'AD' },
  { code: 'eo', name: 'Esperanto', country: null },
  { code: 'gl', name: 'Galician', country: 'ES' },
  { code: 'ka', name: 'Georgian', country: 'GE' },
  { code: 'ht', name: 'Haitian Creole', country: 'HT' },
  { code: 'is', name: 'Icelandic', country: 'IS' },
  { code: 'ga', name: 'Irish', country: 'IE' },
  { code: 'kn', name: 'Kannada', country: 'IN' },
  { code: 'la', name: 'Latin', country: 'VA' },
  { code: 'lv', name: 'Latvian', country: 'LV' },
  { code: 'lt', name: 'Lithuanian', country: 'LT' },
  { code: 'lb', name: 'Luxembourgish', country: 'LU' },
  { code: 'mk', name: 'Macedonian', country: 'MK' },
  { code: 'mt', name: 'Maltese', country: 'MT' },
  { code: 'mn', name: 'Mongolian', country: 'MN' },
  { code: 'ne', name: 'Nepali', country: 'NP' },
  { code: 'se', name: 'Northern Sami', country: 'NO' },
  { code: 'si', name: 'Sinhala', country: 'LK' },
  { code: 'et', name: 'Estonian', country: 'EE' },
  { code: 'tl', name: 'Tagalog', country: 'PH' },
  { code: 'my', name: 'Burmese', country: 'MM' },
  { code: 'kk', name: 'Kazakh', country: 'KZ' },
  { code: 'bs', name: 'Bosnian', country: 'BA' },
  { code: 'sw', name: 'Swahili', country: 'KE' },
  { code: 'am', name: 'Amharic', country: 'ET' },
  { code: 'az', name: 'Azerbaijani', country: 'AZ' },
  { code: 'be', name: 'Belarusian', country: 'BY' },
  { code: 'uz', name: 'Uzbek', country: 'UZ' },
  { code: 'km', name: 'Khmer', country: 'KH' },
  { code: 'lo', name: 'Lao', country: 'LA' },
  { code: 'sd', name: 'Sindhi', country: 'PK' },
  { code: 'cy', name: 'Welsh', country: 'GB' },
  { code: 'fy', name: 'Western Frisian', country: 'NL' },
  { code: 'yo', name: 'Yoruba', country: 'NG' },
  { code: 'ha', name: 'Hausa', country: 'NG' },
  { code: 'ig', name: 'Igbo', country: 'NG' },
  { code: 'zu', name: 'Zulu', country: 'ZA' },
  { code: 'xh', name: 'Xhosa', country: 'ZA' },
  { code: 'sn', name: 'Shona', country: 'ZW' },
  { code: 'fo', name: 'Faroese', country: 'FO' },
  { code: 'ny', name: 'Chichewa', country: 'MW' },
  { code: 'rw', name: 'Kinyarwanda', country: 'RW' },
  { code: 'st', name: 'Sesotho', country: 'LS' },
  { code: 'tn', name: 'Setswana', country: 'BW' },
  { code: 'ts', name: 'Tsonga', country: 'ZA' },
  { code: 'ss', name: 'Swati', country: 'SZ' },
  { code: 've', name: 'Venda', country: 'ZA' },
  { code: 'tw', name: 'Twi', country: 'GH' },
];

/** The 17 codes the legacy interface accepts (for both languages, plus `auto` as source). */
export const LEGACY_CODES: readonly string[] = [
  'ar',
  'zh',
  'cs',
  'nl',
  'en',
  'fr',
  'de',
  'hi',
  'hu',
  'it',
  'ja',
  'ko',
  'pl',
  'pt',
  'ru',
  'es',
  'tr',
];

/** `auto` is a source language only; it is never a valid target. */
export const AUTO = 'auto';

export const TARGET_CODES: readonly string[] = LANGUAGES.map((l) => l.code);

const byCode = new Map(LANGUAGES.map((l) => [l.code, l]));

export function languageName(code: string): string {
  return code === AUTO ? 'Detect automatically' : (byCode.get(code)?.name ?? code);
}

/** The code of a language typed by its name ("English", "spanish"), when the name is one of ours. */
export function codeForName(name: string): string | null {
  const wanted = name.trim().toLowerCase();
  return LANGUAGES.find((l) => l.name.toLowerCase() === wanted)?.code ?? null;
}

/** Flag emoji from a two-letter country code (regional indicator symbols); a globe where none applies. */
export function flagEmoji(country: string | null): string {
  if (!country) return '\u{1F310}';
  return String.fromCodePoint(...[...country.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
