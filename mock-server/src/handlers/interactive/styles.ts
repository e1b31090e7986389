/**
 * The interactive page's styles: no external assets (the page works offline), the merchant's
 * theme through three custom properties set by `themeVariables()`.
 */
import type { MerchantRecord } from '../../store.js';

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const CSS_LENGTH = /^(?:0|\d{1,3}(?:\.\d{1,2})?(?:px|rem|em|%))$/;

const DEFAULT_THEME = { primary_color: '#0f766e', border_radius: '12px' };

/** sRGB relative luminance (WCAG 2.x) of a `#rgb` or `#rrggbb` colour. */
function luminance(hex: string): number {
  const full = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (c) => c + c) : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/**
 * `:root` custom properties from the merchant's widget theme. Values are checked before they
 * reach CSS (a colour that is not hex, or a length that is not a plain length, falls back to
 * the default), and text on the primary colour is white or near-black, whichever reads better.
 * The focus ring uses the primary colour only where it stands out against the white page.
 */
export function themeVariables(theme: MerchantRecord['widget_config']['theme'] | undefined): string {
  const primary = theme && HEX_COLOUR.test(theme.primary_color) ? theme.primary_color : DEFAULT_THEME.primary_color;
  const radius = theme && CSS_LENGTH.test(theme.border_radius) ? theme.border_radius : DEFAULT_THEME.border_radius;
  const l = luminance(primary);
  const onPrimary = contrast(l, 1) >= contrast(l, luminance('#111827')) ? '#ffffff' : '#111827';
  const focus = contrast(l, 1) >= 3 ? primary : '#111827';
  return `:root{--ramp-primary:${primary};--ramp-on-primary:${onPrimary};--ramp-focus:${focus};--ramp-radius:${radius}}`;
}

export const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{color-scheme:light;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#111827;background:#f3f4f6}
body{margin:0;padding:1rem}
main{max-width:30rem;margin:0 auto;background:#fff;border-radius:var(--ramp-radius);padding:1.5rem;box-shadow:0 1px 3px rgb(0 0 0/.12);overflow-wrap:break-word}
h1{font-size:1.5rem;margin:0 0 .25rem}
h2{font-size:1.125rem;margin:0 0 .5rem}
p{margin:.25rem 0 .75rem}
.muted{color:#4b5563;font-size:.875rem}
.banner{background:#fef3c7;color:#78350f;border-radius:calc(var(--ramp-radius)/2);padding:.5rem .75rem;font-size:.875rem}
fieldset{border:1px solid #d1d5db;border-radius:var(--ramp-radius);margin:0 0 1rem;padding:.75rem 1rem 1rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;font-weight:500;margin:.5rem 0 .25rem}
.choices{display:grid;gap:.5rem}
.choice{display:flex;align-items:center;gap:.5rem;margin:0;padding:.625rem .75rem;border:1px solid #d1d5db;border-radius:calc(var(--ramp-radius)/2);cursor:pointer;font-weight:500}
.choice:has(input:checked){border-color:var(--ramp-primary);box-shadow:inset 0 0 0 1px var(--ramp-primary)}
.choice input{width:1.125rem;height:1.125rem;margin:0;accent-color:var(--ramp-primary)}
input[type=tel],input[type=text],input[type=number]{width:100%;min-height:2.75rem;font:inherit;padding:.5rem .75rem;border:1px solid #6b7280;border-radius:calc(var(--ramp-radius)/2);background:#fff;color:inherit}
input[aria-invalid=true]{border-color:#b42318;box-shadow:inset 0 0 0 1px #b42318}
/* The input keeps at least 14rem beside its button; narrower, the button goes under it, full width. */
.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.row>div{flex:999 1 14rem}
.row>button{flex:1 0 auto;max-width:100%}
.hint{color:#4b5563;font-size:.875rem;margin:.25rem 0 0}
.error{color:#b42318;font-size:.875rem;font-weight:500;margin:.25rem 0 0}
.error:empty{display:none}
button,.button{display:inline-flex;justify-content:center;align-items:center;font:inherit;font-weight:600;padding:.5rem 1rem;min-height:2.75rem;border-radius:calc(var(--ramp-radius)/2);cursor:pointer;text-decoration:none}
.primary{width:100%;border:0;background:var(--ramp-primary);color:var(--ramp-on-primary)}
.secondary{border:1px solid var(--ramp-primary);background:#fff;color:#111827;text-align:center}
button[aria-busy=true]{opacity:.7;cursor:progress}
:focus-visible{outline:3px solid var(--ramp-focus);outline-offset:2px}
input:focus-visible{outline-offset:1px}
[tabindex="-1"]:focus{outline:none}
.summary{border-radius:var(--ramp-radius);background:#f9fafb;border:1px solid #e5e7eb;padding:.75rem 1rem;margin:0 0 1rem}
.summary dl{display:grid;grid-template-columns:1fr auto;gap:.25rem 1rem;margin:.25rem 0}
.summary dt{color:#374151}
.summary dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
.summary .total{font-weight:700;color:#111827}
.status{border-left:4px solid var(--ramp-primary);padding:.5rem .75rem;background:#f9fafb;margin:1rem 0}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
/* Text with a Stellar address in it: the address breaks anywhere rather than widen the page. */
.break{overflow-wrap:anywhere}
/* Like .row: a phone shows the address on full lines and its copy button under it. */
.copy{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end;margin:.25rem 0 .75rem}
.copy>div{flex:999 1 18rem;min-width:0}
.copy>button{flex:1 0 auto}
.copy output{display:block;padding:.5rem .75rem;background:#f3f4f6;border-radius:calc(var(--ramp-radius)/2)}
.spinner{display:inline-block;width:1rem;height:1rem;margin-right:.5rem;vertical-align:-.125rem;border:2px solid #d1d5db;border-top-color:var(--ramp-primary);border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(1turn)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
[hidden]{display:none!important}
/* A phone: the page is the card, edge to edge, so that the text has the width. */
@media (max-width:30rem){
body{padding:0}
main{border-radius:0;box-shadow:none;padding:1rem;min-height:100vh}
fieldset{padding:.5rem .75rem .75rem}
}
`;
