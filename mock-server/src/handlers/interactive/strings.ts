/**
 * What the interactive page says, one dictionary per language. Adding a language is adding a
 * dictionary of the same shape to STRINGS (the type makes a missing text a compile error).
 * `{name}` marks a value filled in by `format()`, on the server and in the page's script alike.
 */
const en = {
  title_deposit: 'Buy USDC',
  title_withdrawal: 'Sell USDC',
  intro_deposit: 'Pay with Mobile Money and receive USDC in your Stellar wallet.',
  intro_withdrawal: 'Send USDC and receive cedis in your Mobile Money wallet.',
  test_mode: 'Test mode: simulated Mobile Money and the Stellar test network. No real money moves.',
  merchant: 'For {merchant}',

  provider_legend: 'Mobile Money provider',
  phone_legend: 'Phone number',
  phone_label: 'Mobile Money number',
  phone_hint: 'With the country code, for example +233 24 123 4567.',
  send_code: 'Send code',
  resend_code: 'Send a new code',
  code_label: 'Verification code',
  code_hint: 'The 6-digit code we sent to {phone}.',
  code_sent: 'We sent a code to {phone}.',

  amount_legend: 'Amount',
  amount_label_deposit: 'Amount to pay, in GHS',
  amount_label_withdrawal: 'Amount to sell, in USDC',
  amount_hint: 'From {min} to {max} {currency}.',
  amount_preset: 'Amount set by {merchant}: {amount} {currency}',

  destination_legend: 'Where to receive your USDC',
  destination_label: 'Stellar address',
  destination_hint: '56 characters, starting with G.',
  destination_preset: 'Your USDC goes to {address}.',

  summary_heading: 'Fees and what you receive',
  summary_empty: 'Enter an amount to see the fees.',
  summary_loading: 'Getting a quote…',
  summary_you_pay: 'You pay',
  summary_you_send: 'You send',
  summary_platform_fee: 'Platform fee ({percent})',
  summary_network_fee: 'Stellar network fee',
  summary_rate: 'Exchange rate',
  summary_rate_value: '1 USDC = {rate} GHS',
  summary_guaranteed: 'Guaranteed rate: 1 USDC = {rate} GHS until {time}.',
  summary_you_receive: 'You receive',
  summary_note_deposit: 'Fees are taken from the amount you pay. The rate includes our exchange spread.',
  summary_note_withdrawal: 'Fees are taken from the cedis paid out. The rate includes our exchange spread.',
  summary_changed: 'The fees changed with your amount. Check them, then confirm.',

  confirm_deposit: 'Confirm and pay',
  confirm_withdrawal: 'Confirm',
  working: 'Working…',

  error_provider: 'Choose your Mobile Money provider.',
  error_phone: 'Enter your Mobile Money number with its country code, for example +233241234567.',
  error_code_not_sent: 'Send a code to your phone first.',
  error_code: 'Enter the 6-digit code we sent to your phone.',
  error_amount: 'Enter an amount.',
  error_amount_min: 'The minimum is {min} {currency}.',
  error_amount_max: 'The maximum is {max} {currency}.',
  error_destination: 'Enter a Stellar address: 56 characters, starting with G.',
  error_network: 'We could not reach the service. Check your connection and try again.',

  status_heading: 'Status',
  status_incomplete: 'Waiting for you to complete the form.',
  status_pending_user_transfer_start_deposit: 'Approve the payment prompt on your phone.',
  status_pending_user_transfer_start_withdrawal: 'Waiting for your USDC.',
  status_pending_anchor: 'Payment received. Preparing your USDC.',
  status_pending_stellar: 'Your USDC is on its way. Waiting for the Stellar network to confirm it.',
  status_pending_external: 'USDC received. Starting your Mobile Money payout.',
  status_pending_payout_confirmation: 'Paying out to your Mobile Money wallet.',
  status_completed_deposit: 'Done. Your USDC is in your wallet.',
  status_completed_withdrawal: 'Done. The cedis are in your Mobile Money wallet.',
  status_expired: 'This transaction expired before it was completed.',
  status_error: 'The transaction failed. No money was taken.',
  status_error_message: 'The transaction failed: {message}',

  approve_heading: 'Approve the prompt on your phone',
  approve_text: 'We sent a payment prompt for {amount} GHS to {phone} ({provider}). Approve it to pay.',
  send_heading: 'Send your USDC',
  send_text: 'Send exactly {amount} USDC to this address with this memo. Without the memo we cannot match your payment.',
  send_address: 'Address',
  send_memo: 'Memo',
  send_amount: 'Amount',
  copy_address: 'Copy address',
  copy_memo: 'Copy memo',
  copied: 'Copied.',
  copy_failed: 'Could not copy. Select the text and copy it yourself.',
  transaction_id: 'Transaction {id}',
  back: 'Back to {merchant}',

  link_title: 'This link cannot be used',
  link_text: 'It is not valid, or it has expired: each link works for 30 minutes. Go back to {merchant} to start again.',
  unknown_title: 'Transaction not found',
  unknown_text: 'Check that you opened the whole link.',
  noscript: 'This page needs JavaScript. Turn it on, then reload the page.',
  the_merchant: 'the merchant',
};

export type Strings = typeof en;

const fr: Strings = {
  title_deposit: 'Acheter des USDC',
  title_withdrawal: 'Vendre des USDC',
  intro_deposit: 'Payez avec Mobile Money et recevez des USDC dans votre portefeuille Stellar.',
  intro_withdrawal: 'Envoyez des USDC et recevez des cedis sur votre compte Mobile Money.',
  test_mode: 'Mode test : Mobile Money simulé et réseau de test Stellar. Aucun argent réel ne circule.',
  merchant: 'Pour {merchant}',

  provider_legend: 'Opérateur Mobile Money',
  phone_legend: 'Numéro de téléphone',
  phone_label: 'Numéro Mobile Money',
  phone_hint: 'Avec l’indicatif du pays, par exemple +233 24 123 4567.',
  send_code: 'Envoyer le code',
  resend_code: 'Envoyer un nouveau code',
  code_label: 'Code de vérification',
  code_hint: 'Le code à 6 chiffres envoyé au {phone}.',
  code_sent: 'Nous avons envoyé un code au {phone}.',

  amount_legend: 'Montant',
  amount_label_deposit: 'Montant à payer, en GHS',
  amount_label_withdrawal: 'Montant à vendre, en USDC',
  amount_hint: 'De {min} à {max} {currency}.',
  amount_preset: 'Montant fixé par {merchant} : {amount} {currency}',

  destination_legend: 'Où recevoir vos USDC',
  destination_label: 'Adresse Stellar',
  destination_hint: '56 caractères, commençant par G.',
  destination_preset: 'Vos USDC iront à {address}.',

  summary_heading: 'Frais et montant reçu',
  summary_empty: 'Saisissez un montant pour voir les frais.',
  summary_loading: 'Calcul du devis…',
  summary_you_pay: 'Vous payez',
  summary_you_send: 'Vous envoyez',
  summary_platform_fee: 'Frais de plateforme ({percent})',
  summary_network_fee: 'Frais du réseau Stellar',
  summary_rate: 'Taux de change',
  summary_rate_value: '1 USDC = {rate} GHS',
  summary_guaranteed: 'Taux garanti : 1 USDC = {rate} GHS jusqu’à {time}.',
  summary_you_receive: 'Vous recevez',
  summary_note_deposit: 'Les frais sont prélevés sur le montant payé. Le taux inclut notre marge de change.',
  summary_note_withdrawal: 'Les frais sont prélevés sur les cedis versés. Le taux inclut notre marge de change.',
  summary_changed: 'Les frais ont changé avec le montant. Vérifiez-les, puis confirmez.',

  confirm_deposit: 'Confirmer et payer',
  confirm_withdrawal: 'Confirmer',
  working: 'En cours…',

  error_provider: 'Choisissez votre opérateur Mobile Money.',
  error_phone: 'Saisissez votre numéro Mobile Money avec l’indicatif du pays, par exemple +233241234567.',
  error_code_not_sent: 'Envoyez d’abord un code à votre téléphone.',
  error_code: 'Saisissez le code à 6 chiffres envoyé à votre téléphone.',
  error_amount: 'Saisissez un montant.',
  error_amount_min: 'Le minimum est de {min} {currency}.',
  error_amount_max: 'Le maximum est de {max} {currency}.',
  error_destination: 'Saisissez une adresse Stellar : 56 caractères, commençant par G.',
  error_network: 'Le service est injoignable. Vérifiez votre connexion et réessayez.',

  status_heading: 'État',
  status_incomplete: 'En attente du formulaire.',
  status_pending_user_transfer_start_deposit: 'Validez la demande de paiement sur votre téléphone.',
  status_pending_user_transfer_start_withdrawal: 'En attente de vos USDC.',
  status_pending_anchor: 'Paiement reçu. Préparation de vos USDC.',
  status_pending_stellar: 'Vos USDC sont en route. En attente de confirmation du réseau Stellar.',
  status_pending_external: 'USDC reçus. Lancement du versement Mobile Money.',
  status_pending_payout_confirmation: 'Versement en cours sur votre compte Mobile Money.',
  status_completed_deposit: 'Terminé. Vos USDC sont dans votre portefeuille.',
  status_completed_withdrawal: 'Terminé. Les cedis sont sur votre compte Mobile Money.',
  status_expired: 'Cette transaction a expiré avant d’être terminée.',
  status_error: 'La transaction a échoué. Aucun argent n’a été prélevé.',
  status_error_message: 'La transaction a échoué : {message}',

  approve_heading: 'Validez la demande sur votre téléphone',
  approve_text: 'Nous avons envoyé une demande de paiement de {amount} GHS au {phone} ({provider}). Validez-la pour payer.',
  send_heading: 'Envoyez vos USDC',
  send_text: 'Envoyez exactement {amount} USDC à cette adresse avec ce mémo. Sans le mémo, nous ne pouvons pas identifier votre paiement.',
  send_address: 'Adresse',
  send_memo: 'Mémo',
  send_amount: 'Montant',
  copy_address: 'Copier l’adresse',
  copy_memo: 'Copier le mémo',
  copied: 'Copié.',
  copy_failed: 'Copie impossible. Sélectionnez le texte et copiez-le vous-même.',
  transaction_id: 'Transaction {id}',
  back: 'Retour à {merchant}',

  link_title: 'Ce lien ne peut pas être utilisé',
  link_text: 'Il n’est pas valide, ou il a expiré : chaque lien sert pendant 30 minutes. Retournez chez {merchant} pour recommencer.',
  unknown_title: 'Transaction introuvable',
  unknown_text: 'Vérifiez que vous avez ouvert le lien en entier.',
  noscript: 'Cette page a besoin de JavaScript. Activez-le, puis rechargez la page.',
  the_merchant: 'le marchand',
};

/** Every language the page speaks, by BCP 47 primary tag. */
export const STRINGS = { en, fr } satisfies Record<string, Strings>;
export type Lang = keyof typeof STRINGS;

/** The supported language for a requested tag (`fr-GH` -> `fr`), English when unsupported. */
export function pickLang(...requested: (string | null | undefined)[]): Lang {
  for (const tag of requested) {
    const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
    if (primary && Object.hasOwn(STRINGS, primary)) return primary as Lang;
  }
  return 'en';
}

/** Fills `{name}` placeholders; an unknown name stays as written. */
export function format(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
