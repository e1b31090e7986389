/** The few HTML helpers the pages share. */

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export const STYLES = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1.5rem; color: #1f2937; }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
  section { border: 1px solid #e5e7eb; border-radius: 12px; padding: 1rem 1.25rem; margin: 1rem 0; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(18rem, 100%), 1fr)); gap: 1rem; }
  .grid section { margin: 0; }
  .muted { color: #6b7280; font-size: .9rem; }
  .ok { color: #047857; font-weight: 600; }
  .bad { color: #b91c1c; font-weight: 600; }
  ol, ul { padding-left: 1.25rem; margin: .5rem 0; }
  li { margin: .15rem 0; }
  code, .mono { font-family: ui-monospace, monospace; font-size: .85rem; overflow-wrap: anywhere; }
  button { font: inherit; min-height: 2.75rem; padding: .45em 1em; border-radius: 10px; border: 1px solid #0f766e; background: #fff; color: #0f766e; cursor: pointer; }
  .banner { background: #fef3c7; border-radius: 8px; padding: .5rem .75rem; font-size: .9rem; }
  .deposit { background: #f3f4f6; border-radius: 8px; padding: .5rem .75rem; margin: .5rem 0; }
  @media (max-width: 30rem) { body { padding: 1rem; } section { padding: .75rem 1rem; } }
`;

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Kofi Shop</title><style>${STYLES}</style></head>
<body>
${body}
</body>
</html>`;
}
