/**
 * An attacker's upload over a raw socket: a chunked body with no length, sent until the server
 * answers or `max` bytes have gone. A server that reads the whole body before it checks its
 * size answers only after the end, which never comes: then `status` is 0.
 */
import { connect } from 'node:net';

export async function flood(
  url: string,
  path: string,
  headers: Record<string, string> = {},
  max = 64 * 1024 * 1024,
): Promise<{ status: number; sent: number }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  // The server may close while we still write: EPIPE or ECONNRESET is the expected end here.
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
  const lines = Object.entries({ host: `${hostname}:${port}`, 'content-type': 'application/json', ...headers, 'transfer-encoding': 'chunked' });
  socket.write(`POST ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`);
  const chunk = `10000\r\n${'['.repeat(0x10000)}\r\n`;
  let sent = 0;
  while (!answer && sent < max && !socket.destroyed) {
    sent += 0x10000;
    if (!socket.write(chunk)) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  // Whatever was sent has had time to arrive.
  for (let waited = 0; !answer && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), sent };
}
