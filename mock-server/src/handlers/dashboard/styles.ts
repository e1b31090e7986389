/** The dashboard's one style sheet (pinned by hash in the CSP). Colours keep WCAG AA contrast. */
export const DASHBOARD_CSS = `
:root { color-scheme: light; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24; background: #f6f7f9; }
body { margin: 0; }
header { background: #14213d; color: #fff; padding: 0.75rem 1.25rem; }
header h1 { margin: 0; font-size: 1.25rem; }
header p { margin: 0.25rem 0 0; color: #dfe6f3; }
main { display: grid; gap: 1rem; padding: 1rem 1.25rem 3rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 34rem), 1fr)); }
section { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 0.75rem 1rem; min-width: 0; }
section.wide { grid-column: 1 / -1; }
h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
h3 { font-size: 1rem; margin: 0.75rem 0 0.25rem; }
h4 { font-size: 0.9rem; margin: 0.5rem 0 0.25rem; color: #3d4650; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.3rem 0.4rem; border-bottom: 1px solid #e4e8ec; vertical-align: top; }
th { color: #3d4650; font-weight: 600; }
.scroll { overflow-x: auto; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.85rem; }
pre { background: #f2f4f7; padding: 0.5rem; border-radius: 4px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 0.25rem 0; }
ul, ol { margin: 0.25rem 0; padding-left: 1.25rem; }
li { margin: 0.2rem 0; }
.empty { color: #57606a; font-style: italic; margin: 0.25rem 0; }
.code { font-size: 1.2rem; font-weight: 700; letter-spacing: 0.1em; font-family: ui-monospace, Menlo, monospace; }
.status { display: inline-block; padding: 0 0.4rem; border-radius: 999px; background: #eaeef2; color: #1b1f24; font-size: 0.85rem; }
.phone { border: 1px solid #d0d7de; border-radius: 8px; padding: 0.25rem 0.75rem 0.5rem; margin: 0.5rem 0; }
.actions { display: inline-flex; flex-wrap: wrap; gap: 0.35rem; margin-left: 0.25rem; }
button { font: inherit; font-size: 0.9rem; padding: 0.25rem 0.7rem; border-radius: 6px; border: 1px solid #0b3d91; background: #0b3d91; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #0b3d91; }
button[aria-disabled="true"] { opacity: 0.6; cursor: progress; }
button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid #b35900; outline-offset: 2px; }
input, select { font: inherit; font-size: 0.9rem; padding: 0.2rem 0.35rem; border: 1px solid #57606a; border-radius: 4px; }
form.inline, .inline { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
summary { cursor: pointer; color: #0b3d91; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.75rem; margin: 0.25rem 0; }
dt { color: #3d4650; }
dd { margin: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
#announce { min-height: 1.3em; margin: 0.5rem 0 0; }
`;
