/** What the customer types, read the way the API wants it. */

export const PHONE = /^\+\d{7,15}$/;
export const STELLAR_ADDRESS = /^G[A-Z2-7]{55}$/;

/** `024 123 4567`, `00233…` and `+233 24…` all become `+23324…`. */
export function normalizePhone(raw: string): string {
  let phone = raw.replace(/[\s().-]/g, '');
  if (/^00\d+$/.test(phone)) phone = '+' + phone.slice(2);
  if (/^0\d{9}$/.test(phone)) phone = '+233' + phone.slice(1);
  return phone;
}

/** A decimal with "." or "," as separator and at most 2 places; null if it is not one. */
export function parseAmount(raw: string): number | null {
  const text = raw.replace(/[\s\u00a0\u202f]/g, '');
  if (/^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(text)) return Number(text.replace(/,/g, ''));
  if (/^\d+([.,]\d{1,2})?$/.test(text)) return Number(text.replace(',', '.'));
  return null;
}
