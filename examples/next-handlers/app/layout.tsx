import type { ReactNode } from 'react';

export const metadata = { title: 'Shop: top up with Mobile Money' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
