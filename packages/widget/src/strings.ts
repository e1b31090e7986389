/**
 * What the widget itself says, in the languages of the interactive page (en, fr: its French is
 * mock-server/src/handlers/interactive/strings.ts). Adding a language is adding a dictionary of
 * the same shape (the type makes a missing text a compile error). Messages that come from
 * elsewhere (your backend's errors, the service's) are shown as they are, after the prefix.
 */
const en = {
  buy: 'Buy USDC',
  sell: 'Sell USDC',
  wallet: 'Connect wallet',
  close: 'Close',
  continue: 'Continue',
  loading: 'Loading…',
  secret: 'Not a public key.',
  blocked: 'Popup blocked.',
  session: 'Session: ',
  config: 'Widget config: ',
  noFreighter: 'Freighter is not installed.',
};

export type Strings = typeof en;

const fr: Strings = {
  buy: 'Acheter des USDC',
  sell: 'Vendre des USDC',
  wallet: 'Connecter un portefeuille',
  close: 'Fermer',
  continue: 'Continuer',
  loading: 'Chargement…',
  secret: 'Ce n’est pas une clé publique.',
  blocked: 'Fenêtre bloquée par le navigateur.',
  session: 'Session : ',
  config: 'Configuration du widget : ',
  noFreighter: 'Freighter n’est pas installé.',
};

/**
 * An element's language: its `lang`, or its nearest ancestor's, or (inside another component's
 * shadow root, where that search stops) the document's.
 */
export const langOf = (el: Element): string => (el.closest('[lang]') as HTMLElement | null)?.lang || document.documentElement.lang;

/** The dictionary for a BCP 47 tag (`fr`, `fr-GH`, `FR`): French for French, English for anything else. */
export const strings = (lang: string): Strings => (/^fr\b/i.test(lang) ? fr : en);
