// The page's custom properties win over the merchant's widget config (set on the host as
// --_cp and --_cr), which wins over the defaults. Written compact: it ships as it is (one line:
// the minifier joins the strings, and a newline would cost gzip bytes). A plain string, adopted
// as a constructed stylesheet by the element (see ramp-widget.ts): nothing of it runs on import.
export const styles =
  ':host{display:inline-block;--_p:var(--ramp-primary-color,var(--_cp,#0f766e));--_r:var(--ramp-border-radius,var(--_cr,12px))}' +
  'button{font:inherit;padding:.5em 1em;border:0;border-radius:var(--_r);background:var(--_p);color:#fff;cursor:pointer}' +
  'dialog{padding:0;border:0;border-radius:var(--_r);width:min(440px,100vw);height:min(720px,100vh)}' +
  'dialog[open]{display:flex;flex-direction:column}' +
  'h2{margin:0 auto 0 1em;font-size:1em}' +
  'header{display:flex;align-items:center}' +
  'iframe{flex:1;border:0}' +
  'p{color:#b42318}' +
  // Busy: dimmed, and the status text beside it says why.
  '[aria-busy=true]{opacity:.7;cursor:progress}';
